import OpenClawApprovals
import OpenClawChat
import OpenClawGateway

/// Everything of one conversation with one gateway: the connection, the chat view model, and the
/// screen models on top of it. Built when the app connects to a gateway (or starts the demo) and
/// dropped as a whole when it switches, so nothing of one gateway leaks into another.
@MainActor
public final class ChatContext {
    public let connection: GatewayConnection
    public let chat: ChatViewModel
    public let chatScreen: ChatScreenModel
    public let sessions: SessionsModel
    public let search: SearchModel
    /// The approval sheet's model when this device approves commands (the setting), else nil.
    public let approvals: ApprovalsModel?
    /// The agent's question cards when this device answers them (the setting), else nil.
    public let questions: QuestionsModel?
    /// Keeps the approvals client on the chat's session (`session.approval`) while the chat runs.
    private var approvalsFollow: Task<Void, Never>?

    init(connection: GatewayConnection, store: any ChatStore, dependencies: AppDependencies) {
        self.connection = connection
        chat = ChatViewModel(client: ChatClient(connection: connection), store: store)
        chatScreen = ChatScreenModel(chat: chat)
        sessions = SessionsModel(chat: chat)
        search = SearchModel(
            store: store, chatScreen: chatScreen, debounce: dependencies.searchDebounce, sleep: dependencies.sleep)
        approvals =
            connection.configuration.approvalsEnabled
            ? ApprovalsModel(client: ApprovalsClient(connection: connection)) : nil
        questions =
            connection.configuration.questionsEnabled
            ? QuestionsModel(client: QuestionsClient(connection: connection)) : nil
    }

    /// Paints the stored transcript, connects and loads the session.
    func start() async {
        approvalsFollow?.cancel()
        approvalsFollow = approvals?.client.follow(sessionKeys: chat.session.currentSessionKeys())
        await approvals?.start()
        await questions?.start()
        await chat.session.start()
    }

    func stop() async {
        search.cancel()
        approvalsFollow?.cancel()
        await approvals?.stop()
        await questions?.stop()
        await chat.session.stop()
    }
}

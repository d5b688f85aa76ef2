import OpenClawChat
import OpenClawGateway

/// Builds the interactive chat's view model on a connection and a store, and runs it.
enum InteractiveSession {
    @MainActor
    static func run(
        connection: GatewayConnection,
        session: String,
        thinking: String?,
        label: String,
        store: any ChatStore,
        terminal: Terminal,
        inputHistory: InputHistory = InputHistory(path: nil)
    ) async -> Int32 {
        let viewModel = ChatViewModel(client: ChatClient(connection: connection), sessionKey: session, store: store)
        viewModel.thinkingLevel = thinking
        let approvals = connection.configuration.approvalsEnabled ? ApprovalsClient(connection: connection) : nil
        let questions = connection.configuration.questionsEnabled ? QuestionsClient(connection: connection) : nil
        return await InteractiveChat(
            viewModel: viewModel, connection: connection, terminal: terminal, gatewayLabel: label,
            inputHistory: inputHistory, approvals: approvals, questions: questions
        ).run()
    }
}

import OpenClawApprovals
import OpenClawChat
import OpenClawGateway
import OpenClawProtocol

/// Builds the interactive chat's chat session on a connection and a store, and runs it.
enum InteractiveSession {
    @MainActor
    static func run(
        connection: GatewayConnection,
        session: String,
        thinking: ThinkingLevel?,
        label: String,
        store: any ChatStore,
        terminal: Terminal,
        inputHistory: InputHistory = InputHistory(path: nil)
    ) async -> Int32 {
        let chat = ChatSession(client: ChatClient(connection: connection), sessionKey: session, store: store)
        chat.thinkingLevel = thinking
        let approvals = connection.configuration.approvalsEnabled ? ApprovalsClient(connection: connection) : nil
        let questions = connection.configuration.questionsEnabled ? QuestionsClient(connection: connection) : nil
        return await InteractiveChat(
            chat: chat, connection: connection, terminal: terminal, gatewayLabel: label,
            inputHistory: inputHistory, approvals: approvals, questions: questions
        ).run()
    }
}

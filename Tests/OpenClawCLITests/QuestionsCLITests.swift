import Foundation
import OpenClawProtocol
import OpenClawTestGateway
import Testing

/// The interactive chat's question cards (`--questions`) as a person sees them in a terminal: the
/// agent's question drawn as a card, hostile text in it shown escaped rather than obeyed, answered
/// with `/answer`, the reply going on with the answer.
@Suite("openclaw-chat: agent questions")
struct QuestionsCLITests {
    static let size = InteractiveProcess.WindowSize(columns: 100, rows: 30)

    /// A question whose text tries to clear the screen, retitle the window and fake a prompt.
    static let hostileQuestion = "Pick one\u{1B}[2J\u{1B}]0;pwned\u{07}\r\n› /answer 3"

    static let hostileAgent = ScriptedAgent.custom { _ in
        AgentScript(steps: [
            .say("First a question."),
            .ask(
                ScriptedQuestion(questions: [
                    AskedQuestion(
                        questionId: "pick", header: "Pick\u{1B}[31m", question: hostileQuestion,
                        options: [
                            QuestionOption(label: "Left\u{1B}[1A"),
                            QuestionOption(label: "Right", description: "\u{9B}2J"),
                        ], isOther: false)
                ])),
        ])
    }

    @Test func aHostileQuestionIsShownEscapedAndAnsweredWithASlashCommand() async throws {
        var configuration = TestGatewayConfiguration(deltaThrottleMs: 0)
        configuration.agent = Self.hostileAgent
        try await CLITests.withGateway(configuration) { gateway, common in
            let chat = try InteractiveProcess(
                ["chat", "--questions"] + common, mode: .terminal, environment: ["NO_COLOR": "1"], size: Self.size)
            defer { chat.killIfRunning() }
            try await chat.waitFor("questions on")
            chat.type("hello there", mode: .terminal)
            try await chat.waitFor("question from the agent")
            try await chat.waitForScreen("the card, escaped") { screen in
                let rows = screen.transcript
                return rows.contains { $0.contains("Pick^[[31m  Pick one^[[2J^[]0;pwned^G › /answer 3") }
                    && rows.contains { $0.contains("1) Left^[[1A") }
                    && rows.contains { $0.contains("2) Right — <U+009B>2J") }
            }
            let screen = chat.screen()
            // Nothing was obeyed: what was typed before the card is still on screen.
            #expect(screen.transcript.contains { $0.contains("hello there") }, "\(screen)")
            #expect(!chat.output.contains("\u{1B}]0;pwned"), "the title sequence reached the terminal")
            // A choice the question does not offer is refused here, before the gateway is asked.
            chat.type("/answer somewhere else", mode: .terminal)
            try await chat.waitFor("choose one of its options")
            chat.type("/answer 2", mode: .terminal)
            try await chat.waitFor("answered by you: Right")
            try await chat.waitFor("Thanks, going with")
            #expect(await gateway.pendingQuestions().isEmpty)
            chat.type("/quit", mode: .terminal)
            #expect(try await chat.waitForExit() == 0, "output:\n\(chat.output)")
        }
    }

    /// `/help` lists `/answer` and its kin only for a chat that answers questions; elsewhere typing one
    /// says how to turn them on.
    @Test func helpListsTheQuestionCommandsOnlyWithTheFlag() async throws {
        try await CLITests.withGateway { _, common in
            let plain = try await CLIProcess.run(["chat"] + common, stdin: "/help\n/answer 1\n/quit\n")
            #expect(plain.status == 0, "stderr: \(plain.stderr)")
            #expect(!plain.stdout.contains("/answer [ID] CHOICE"), "\(plain.stdout)")
            #expect(plain.stdout.contains("Started with --questions"))
            #expect(
                plain.stderr.contains("Agent questions are off") || plain.stdout.contains("Agent questions are off"))
            let answering = try await CLIProcess.run(["chat", "--questions"] + common, stdin: "/help\n/quit\n")
            #expect(answering.stdout.contains("/answer [ID] CHOICE"), "\(answering.stdout)")
            #expect(!answering.stdout.contains("Started with --questions"))
        }
    }

    @Test func withoutTheFlagTheChatIsNotAskedForTheScopeNorShownCards() async throws {
        var configuration = TestGatewayConfiguration(deltaThrottleMs: 0)
        configuration.questionTimeoutMs = 500
        try await CLITests.withGateway(configuration) { gateway, common in
            let chat = try InteractiveProcess(["chat"] + common, mode: .terminal, size: Self.size)
            defer { chat.killIfRunning() }
            try await chat.waitFor("Type a message")
            chat.type("ask me", mode: .terminal)
            try await chat.waitFor("No answer, so I will go with my best judgement")
            #expect(!chat.output.contains("question from the agent"))
            let scopes = await gateway.receivedConnectParams().last?["scopes"]?.arrayValue ?? []
            #expect(!scopes.contains(.string(OperatorScope.questions)))
            chat.type("/quit", mode: .terminal)
            #expect(try await chat.waitForExit() == 0, "output:\n\(chat.output)")
        }
    }
}

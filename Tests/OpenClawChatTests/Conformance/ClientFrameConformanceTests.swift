import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import Testing

@testable import OpenClawApprovals
@testable import OpenClawChat

/// The real client (`ChatSession`, `ChatClient`, `ApprovalsClient`, `QuestionsClient` over
/// `GatewayConnection`) against a test gateway whose every frame is validated: each request the client
/// builds against its method's params definition, each response and event the gateway emits against
/// its result or payload definition (`FrameConformanceRecorder`; v3 the shared generated schema, v4 the
/// repository's current one). A client that adds a field upstream refuses fails here.
@Suite("Client and test gateway frames conform to the protocol schemas")
@MainActor
struct ClientFrameConformanceTests {
    @Test(arguments: [3, 4])
    func everyMethodTheClientCallsValidates(version: Int) async throws {
        let recorder = try FrameConformanceRecorder(protocolVersion: version)
        var configuration = TestGatewayConfiguration(protocolNumber: version, deltaThrottleMs: 0)
        configuration.agent = ScriptedAgent(chunkSize: 12, chunkDelayMs: 1, slowChunkDelayMs: 100, toolDurationMs: 5)
        try await withValidatedTestGateway(configuration, recorder: recorder) { gateway in
            // Admin: `sessions.patch` and `sessions.reset` need it on some versions; scopes are not the subject.
            let scopes = OperatorScope.chatDefault + [OperatorScope.admin]
            let (connection, session) = try await ChatHarness.startedViewModel(on: gateway, scopes: scopes)
            let client = ChatClient(connection: connection)
            let approver = try await ApprovalsEndToEndTests.approver(on: gateway, name: "approver")

            for text in ["hello", "use a tool", "please fail"] {
                _ = await session.send(text)
                #expect(await eventually(timeout: .seconds(20)) { !session.isRunning }, "run of \(text) did not end")
            }
            _ = await session.send("slow please")
            #expect(await eventually(timeout: .seconds(20)) { session.isRunning })
            await session.abort()
            #expect(await eventually(timeout: .seconds(20)) { !session.isRunning })

            _ = await session.send("please run a command: make test")
            #expect(await eventually(timeout: .seconds(20)) { await approver.log.requested.count == 1 })
            _ = try await approver.client.decide("", .allowOnce)
            #expect(await eventually(timeout: .seconds(20)) { !session.isRunning })
            if version >= 4 {
                // The approver learns of the close by its own event, which a loaded machine delivers after the
                // run's end (the reads below were once skipped so, and four definitions went unvalidated).
                #expect(await eventually(timeout: .seconds(20)) { await !approver.log.closed.isEmpty })
                let closed = try #require(await approver.log.closed.first)
                _ = try await approver.client.recordedState(closed.id)
                _ = try await approver.client.history(limit: 5)
            }

            let page = try await client.history(sessionKey: "main", limit: 20)
            _ = try await client.sessions(limit: 10)
            _ = try await client.models()
            _ = try await client.setModel(sessionKey: "main", model: "openclaw-test/scripted-agent")
            _ = try await client.commands()
            _ = try await client.agentIdentity()
            try await client.subscribeToSessionChanges()
            if version >= 4 {
                let cursor = try #require(page.deltaCursor, "a v4 tail page carries a deltaCursor")
                _ = try await client.catchUp(sessionKey: "main", cursor: cursor)
                if let messageId = page.messages.compactMap({ $0.entry?.id }).last {
                    _ = try await client.fullMessage(sessionKey: "main", messageId: messageId)
                }
                try await askAndAnswer(on: gateway, session: session)
            }
            try await client.resetSession(sessionKey: "main")
            await approver.stop()
            await session.stop()
            await connection.disconnect()
        }
        let report = recorder.report()
        var expected = [
            "ConnectParams", "HelloOk", "ChatHistoryParams", "ChatSendParams", "ChatAbortParams",
            "ChatEvent", "SessionsListParams", "SessionsPatchParams", "SessionsResetParams", "ModelsListParams",
            "ModelsListResult", "CommandsListParams", "AgentIdentityParams", "AgentIdentityResult",
            "ExecApprovalResolveParams",
        ]
        if version >= 4 {
            expected += [
                "ChatHistoryCursorResult", "ExecApprovalRequestedEvent", "ApprovalResolveParams",
                "ApprovalGetParams", "ApprovalHistoryParams", "ApprovalGetResult", "ApprovalResolveResult",
                "ApprovalHistoryResult", "QuestionListParams", "QuestionResolveParams",
                "QuestionRecord", "QuestionResolvedEvent", "CommandsListResult", "ChatSendResult", "ChatAbortResult",
                "ChatHistoryPage", "SessionsListResult", "SessionsPatchResult", "SessionsResetResult",
                "SessionsSubscribeResult", "SessionsChangedEvent", "QuestionListResult", "QuestionResolveResult",
            ]
        }
        for name in expected where name != "ExecApprovalResolveParams" || version < 4 {
            #expect(report.checked[name, default: 0] > 0, "v\(version): no \(name) was validated")
        }
        let unexpected = report.unchecked.subtracting(ProtocolFrameDefinitions.knownUnchecked(forProtocol: version))
        #expect(unexpected.isEmpty, "v\(version): frames without a definition: \(unexpected.sorted())")
        #expect(report.exempted.isEmpty, "v\(version): nothing here is wrong on purpose: \(report.exempted)")
    }

    /// `question.list` (backfill), `question.requested`, `question.resolve`, `question.resolved`.
    private func askAndAnswer(on gateway: TestGateway, session: ChatSession) async throws {
        let answerer = try await QuestionsEndToEndTests.answerer(on: gateway, name: "answerer")
        _ = await session.send("please ask me something")
        #expect(await eventually(timeout: .seconds(20)) { await answerer.log.requested.count == 1 })
        _ = try await answerer.client.answer("", text: "1")
        #expect(await eventually(timeout: .seconds(20)) { !session.isRunning })
        await answerer.stop()
    }
}

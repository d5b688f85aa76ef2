import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import Testing

@testable import OpenClawApprovals
@testable import OpenClawChat

/// The agent's questions over real sockets against the test gateway: the agent asks, the client shows
/// the card and answers, the run goes on with the answer; unanswered it expires and the run goes on
/// without; the first answer wins; a late client recovers it with `question.list`; a gateway without
/// questions leaves everything working.
@Suite("Agent questions end to end")
@MainActor
struct QuestionsEndToEndTests {
    private typealias E2E = ApprovalsEndToEndTests

    actor UpdateLog {
        private(set) var updates: [QuestionUpdate] = []
        func append(_ update: QuestionUpdate) { updates.append(update) }

        var requested: [PendingQuestion] {
            updates.compactMap { if case .requested(let question) = $0 { question } else { nil } }
        }

        var closed: [ClosedQuestion] {
            updates.compactMap { if case .closed(let closed) = $0 { closed } else { nil } }
        }
    }

    struct Answerer {
        let connection: GatewayConnection
        let client: QuestionsClient
        let log: UpdateLog
        let relay: Task<Void, Never>

        func stop() async {
            relay.cancel()
            await client.stop()
            await connection.disconnect()
        }
    }

    static func answerer(
        on gateway: TestGateway, name: String,
        configure: (inout GatewayConnectionConfiguration) -> Void = { $0.enableQuestions(required: false) }
    ) async throws -> Answerer {
        let connection = try E2E.connection(to: gateway, name: name, configure: configure)
        let client = QuestionsClient(connection: connection)
        await client.start()
        let log = UpdateLog()
        let updates = await client.updates()
        let relay = Task { for await update in updates { await log.append(update) } }
        try await connection.connect()
        return Answerer(connection: connection, client: client, log: log, relay: relay)
    }

    @Test func theAgentAsksTheAnswerReachesItAndTheRunGoesOn() async throws {
        try await E2E.withGateway { gateway, viewModel in
            let answerer = try await Self.answerer(on: gateway, name: "terminal")
            // The client follows the connection's events on its own task: active soon after `connect()` returns.
            #expect(await eventually { await answerer.client.availability == .active })
            _ = await viewModel.send("please ask me something")
            #expect(await eventually(timeout: .seconds(20)) { await answerer.log.requested.count == 1 })
            let question = try #require(await answerer.log.requested.first)
            #expect(question.questions.first?.options.map(\.label).first == "Staging (Recommended)")
            #expect(question.record.sessionKey == "agent:main:main" && question.record.runId != nil)
            // The run holds until the answer.
            #expect(viewModel.isRunning)
            let closed = try await answerer.client.answer("", text: "2")
            #expect(closed.outcome == .answered(QuestionAnswers(["deploy_target": ["Production"]]), byUs: true))
            #expect(
                await eventually(timeout: .seconds(20)) {
                    !viewModel.isRunning && E2E.lastReply(viewModel).contains("Target: Production")
                })
            #expect(await gateway.pendingQuestions().isEmpty)
            #expect(await answerer.client.pending.isEmpty)
            await answerer.stop()
        }
    }

    @Test func anUnansweredQuestionExpiresAndTheAgentGoesOnWithoutIt() async throws {
        try await E2E.withGateway({ $0.questionTimeoutMs = 400 }) { gateway, viewModel in
            let answerer = try await Self.answerer(on: gateway, name: "terminal")
            _ = await viewModel.send("ask me")
            #expect(await eventually(timeout: .seconds(20)) { await answerer.log.requested.count == 1 })
            #expect(await eventually(timeout: .seconds(20)) { await answerer.log.closed.count == 1 })
            #expect(await answerer.log.closed.first?.outcome == .expired)
            #expect(
                await eventually(timeout: .seconds(20)) {
                    !viewModel.isRunning && E2E.lastReply(viewModel).contains("No answer")
                })
            let id = try #require(await answerer.log.requested.first?.id)
            await #expect(throws: QuestionError.closed(id, .expired)) {
                try await answerer.client.answer(id, text: "1")
            }
            await answerer.stop()
        }
    }

    @Test func theFirstAnswerWinsAndASecondIsRefused() async throws {
        try await E2E.withGateway { gateway, viewModel in
            let first = try await Self.answerer(on: gateway, name: "phone")
            let second = try await Self.answerer(on: gateway, name: "terminal")
            _ = await viewModel.send("ask me")
            // Both cards are up before the first answers (the phone's may come a moment after the terminal's).
            #expect(await eventually(timeout: .seconds(20)) { await second.log.requested.count == 1 })
            #expect(await eventually(timeout: .seconds(20)) { await first.log.requested.count == 1 })
            let id = try #require(await second.log.requested.first?.id)
            _ = try await first.client.answer(id, text: "staging (recommended)")
            // The gateway refuses a second resolution with a typed reason.
            do {
                _ = try await second.connection.request(
                    QuestionResolveParams.method,
                    params: QuestionResolveParams.answer(id: id, QuestionAnswers(["deploy_target": ["Production"]]))
                        .json)
                Issue.record("a second answer was accepted")
            } catch {
                guard case .requestFailed(_, let shape)? = error as? GatewayError else {
                    Issue.record("unexpected \(error)")
                    return
                }
                #expect(shape.details?["reason"]?.stringValue == QuestionRefusal.alreadyTerminal)
            }
            // The other card locks with the winner's answer, which the client then refuses to send again.
            let won = QuestionOutcome.answered(
                QuestionAnswers(["deploy_target": ["Staging (Recommended)"]]), byUs: false)
            #expect(await eventually(timeout: .seconds(20)) { await second.log.closed.map(\.outcome) == [won] })
            await #expect(throws: QuestionError.closed(id, won)) { try await second.client.skip(id) }
            #expect(
                await eventually(timeout: .seconds(20)) {
                    !viewModel.isRunning && E2E.lastReply(viewModel).contains("Staging (Recommended)")
                })
            await first.stop()
            await second.stop()
        }
    }

    @Test func aLateAnswererRecoversTheQuestionAndAWrongAnswerIsRefusedByTheGateway() async throws {
        try await E2E.withGateway { gateway, viewModel in
            _ = await viewModel.send("ask me")
            #expect(await eventually(timeout: .seconds(20)) { await gateway.pendingQuestions().count == 1 })
            let late = try await Self.answerer(on: gateway, name: "late")
            #expect(await eventually(timeout: .seconds(20)) { await late.log.requested.count == 1 })
            #expect(await gateway.requestCount(method: QuestionNames.listMethod) == 1)
            let id = try #require(await late.log.requested.first?.id)
            // An answer for a question id the card does not have: the gateway's own check refuses it.
            await #expect(throws: QuestionError.invalidAnswer("question 'other' is not part of this request")) {
                try await late.client.answer(id, QuestionAnswers(["other": ["x"]]))
            }
            _ = try await late.client.skip(id)
            #expect(
                await eventually(timeout: .seconds(20)) {
                    !viewModel.isRunning && E2E.lastReply(viewModel).contains("No answer")
                })
            await late.stop()
        }
    }

    @Test func paramsAreCheckedAsStrictlyAsUpstream() async throws {
        let wrongOnPurpose = [
            InvalidOnPurpose(QuestionNames.listMethod, params: ["all": true]),
            InvalidOnPurpose(QuestionNames.getMethod, params: [:]),
            InvalidOnPurpose(QuestionNames.resolveMethod, "cancel false, bare or badly keyed answers, or a note") {
                $0["cancel"] == false || $0["answers"]?["deploy_target"] != nil
                    || $0["answers"]?["answers"]?["Bad-Key"] != nil || $0["note"] != nil
            },
        ]
        try await E2E.withGateway(invalidOnPurpose: wrongOnPurpose) { gateway, viewModel in
            let answerer = try await Self.answerer(on: gateway, name: "terminal")
            _ = await viewModel.send("ask me")
            #expect(await eventually(timeout: .seconds(20)) { await answerer.log.requested.count == 1 })
            let id = try #require(await answerer.log.requested.first?.id)
            let refused: [(String, JSONValue)] = [
                (QuestionNames.listMethod, ["all": true]),
                (QuestionNames.getMethod, [:]),
                (QuestionNames.resolveMethod, ["id": .string(id), "cancel": false]),
                (QuestionNames.resolveMethod, ["id": .string(id), "answers": ["deploy_target": ["Production"]]]),
                (QuestionNames.resolveMethod, ["id": .string(id), "answers": ["answers": ["Bad-Key": ["x"]]]]),
                (QuestionNames.resolveMethod, ["id": .string(id), "answers": ["answers": [:]], "note": "hi"]),
            ]
            for (method, params) in refused {
                do {
                    _ = try await answerer.connection.request(method, params: params)
                    Issue.record("\(method) accepted \(params)")
                } catch {
                    guard case .requestFailed(_, let shape)? = error as? GatewayError else {
                        Issue.record("unexpected \(error)")
                        continue
                    }
                    #expect(shape.code == .invalidRequest)
                }
            }
            let got = try await answerer.connection.request(
                QuestionGetParams.method, params: QuestionGetParams(id: id).json)
            #expect(QuestionRecord(json: got?["question"])?.status == .pending)
            #expect(await gateway.pendingQuestions() == [id])
            await answerer.stop()
        }
    }

    @Test func aGatewayWithoutQuestionsAsksNothingAndBreaksNothing() async throws {
        try await E2E.withGateway({ $0.quirks = .noQuestions }) { gateway, viewModel in
            let answerer = try await Self.answerer(on: gateway, name: "terminal")
            #expect(await answerer.client.availability == .unsupported)
            _ = await viewModel.send("ask me")
            #expect(
                await eventually(timeout: .seconds(20)) {
                    !viewModel.isRunning && E2E.lastReply(viewModel).contains("cannot ask you here")
                })
            #expect(await answerer.log.requested.isEmpty)
            #expect(await gateway.requestCount(method: QuestionNames.listMethod) == 0)
            await #expect(throws: QuestionError.unavailable(.unsupported)) { try await answerer.client.skip("") }
            await answerer.stop()
        }
    }

    @Test func aClientWithoutTheScopeIsNotAsked() async throws {
        try await E2E.withGateway { gateway, viewModel in
            let bystander = try await Self.answerer(on: gateway, name: "bystander") { _ in }
            let seen = UpdateLog()
            let events = bystander.connection.events()
            let watcher = Task {
                for await event in events {
                    guard case .event(let frame) = event, frame.event.hasPrefix("question.") else { continue }
                    await seen.append(.availability(.active))
                }
            }
            defer { watcher.cancel() }
            let answerer = try await Self.answerer(on: gateway, name: "terminal")
            #expect(await bystander.client.availability == .off)
            _ = await viewModel.send("ask me")
            #expect(await eventually(timeout: .seconds(20)) { await answerer.log.requested.count == 1 })
            _ = try await answerer.client.skip("")
            #expect(await eventually(timeout: .seconds(20)) { !viewModel.isRunning })
            // The gateway sent it no question event at all (nor the resolution).
            #expect(await seen.updates.isEmpty)
            #expect(await bystander.log.requested.isEmpty)
            await bystander.stop()
            await answerer.stop()
        }
    }
}

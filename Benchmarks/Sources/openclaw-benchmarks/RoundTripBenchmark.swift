import OpenClawChat
import OpenClawGateway
import OpenClawProtocol
import OpenClawStore
import OpenClawTestGateway

/// Scenario 3: request → response on a live loopback connection.
enum RoundTripBenchmark {
    @MainActor
    static func run(_ report: Report, settings: Settings) async throws {
        if settings.healthAlone { return try await clientAlone(report, settings: settings) }
        try await Harness.withGateway(protocolNumber: 4, agent: seedingAgent) { gateway in
            try await run(report, settings: settings, gateway: gateway)
        }
    }

    @MainActor
    private static func run(_ report: Report, settings: Settings, gateway: TestGateway) async throws {
        let connection = try Harness.connection(to: gateway)
        try await connection.connect()
        let client = ChatClient(connection: connection)

        let health = try await measure(iterations: settings.healthRequests, warmup: settings.healthRequests / 10) {
            guard try await connection.call(HealthParams())["ok"]?.boolValue == true else {
                throw BenchmarkError.wrongResult("health is not ok")
            }
        }
        report.addLatency("3", "health round trip", health, goal: .atMost(0.08, "ms"))
        let used = try await usage(of: connection, requests: settings.healthRequests)
        report.add(
            "3", "health: CPU per request, client and gateway", used.cpu, "µs",
            note: "the gateway runs in this process: its work is counted too")
        try await clientAlone(report, settings: settings)

        let stored = try await seed(client: client, gateway: gateway, messages: settings.historySessionMessages)
        let history = try await measure(iterations: settings.historyRequests, warmup: settings.historyRequests / 10) {
            let page = try await client.history(sessionKey: "main", limit: 200)
            guard page.messages.count == 200 else {
                throw BenchmarkError.wrongResult("history returned \(page.messages.count) messages")
            }
        }
        let kilobytes = await pageBytes(gateway: gateway) / 1024
        report.addLatency(
            "3", "chat.history limit 200 round trip (decoded)", history,
            note: "session of \(stored) messages, page \(Format.grouped(kilobytes)) KB")
        await connection.disconnect()
        try await chatSend(report, settings: settings, gateway: gateway)
    }

    /// A message typed into a chat that keeps its transcript in SQLite, each after the last one's reply
    /// was confirmed: from `send` to the gateway reading its `chat.send`. What the message waits for is
    /// the store: every write before the frame leaves is a transaction and an fsynced journal record.
    @MainActor
    private static func chatSend(_ report: Report, settings: Settings, gateway: TestGateway) async throws {
        let directory = try TemporaryDirectory(prefix: "openclaw-bench-chat-send")
        defer { directory.remove() }
        let store = try SQLiteChatStore(path: directory.path + "/transcripts.sqlite", logger: Harness.quietLogger)
        let chat = ChatSession(
            client: ChatClient(connection: try Harness.connection(to: gateway)), sessionKey: "bench-send", store: store)
        await chat.start()
        var samples = Samples()
        let runs = settings.programRuns
        for index in 0..<(runs + 2) {
            let settled = await waitUntil(timeout: .seconds(10)) {
                chat.connectionState.isConnected && chat.outbox.isEmpty && !chat.isRunning
                    && chat.transcript.pendingHistoryRefresh == nil
            }
            guard settled else { throw BenchmarkError.setup("the chat did not settle before message \(index)") }
            let before = await gateway.requestCount(method: "chat.send")
            let started = ContinuousClock.now
            // As the apps send: `send` returns when its flush has, so the next message finds it idle.
            _ = await chat.send("typed \(index)")
            guard await gateway.requestCount(method: "chat.send") > before,
                let arrival = await gateway.lastRequestArrival(method: "chat.send")
            else {
                throw BenchmarkError.wrongResult("the gateway saw no chat.send for message \(index)")
            }
            if index >= 2 { samples.append(arrival - started) }
        }
        report.addLatency(
            "3", "chat send, SQLite store: send → chat.send at the gateway", samples,
            note: "a message at a time into an idle outbox; the store's writes before the frame are the wait")
        await chat.stop()
    }

    /// `health` against a gateway in another process: the client's own CPU and context switches.
    @MainActor
    private static func clientAlone(_ report: Report, settings: Settings) async throws {
        let child = try GatewayChild.start()
        defer { child.stop() }
        let connection = try Harness.connection(url: child.url)
        try await connection.connect()
        let health = try await measure(iterations: settings.healthRequests, warmup: settings.healthRequests / 10) {
            _ = try await connection.call(HealthParams())
        }
        report.addLatency("3", "health round trip, gateway in another process", health)
        let used = try await usage(of: connection, requests: settings.healthRequests)
        report.add(
            "3", "health: client CPU per request", used.cpu, "µs", goal: .atMost(40, "µs"),
            note: "gateway in another process")
        report.add(
            "3", "health: client context switches per request", used.switches, "",
            note: "voluntary + involuntary, this process (gateway in another)")
        await connection.disconnect()
    }

    /// This process's CPU (µs) and context switches per `health` request, over `requests` of them.
    @MainActor
    private static func usage(
        of connection: GatewayConnection, requests: Int
    ) async throws -> (cpu: Double, switches: Double) {
        let before = ProcessUsage.now()
        for _ in 0..<requests { _ = try await connection.call(HealthParams()) }
        let used = ProcessUsage.now() - before
        return (used.cpu.seconds * 1e6 / Double(requests), Double(used.contextSwitches) / Double(requests))
    }

    /// Replies at once, with the fixtures' texts (about 1 KB per message): every other run thinks and
    /// calls a tool first, so the history has every kind of part.
    static let seedingAgent = ScriptedAgent.custom { message in
        let turn = Int(message.split(separator: " ").last ?? "") ?? 0
        let answer = AgentStep.say(Fixtures.answer(turn))
        guard turn.isMultiple(of: 2) else { return AgentScript(steps: [answer], chunkSize: 4096, chunkDelayMs: 0) }
        let call = ScriptedToolCall(
            name: "exec", arguments: ["command": .string("rg -n TODO Sources/Module\(turn % 17)")],
            result: Fixtures.toolOutput(turn), durationMs: 0)
        return AgentScript(
            steps: [.thinking(Fixtures.thinking(turn)), .tool(call), answer], chunkSize: 4096, chunkDelayMs: 0)
    }

    /// Sends messages until the main session holds at least `messages`; returns how many it holds.
    static func seed(client: ChatClient, gateway: TestGateway, messages: Int) async throws -> Int {
        var index = 0
        while await gateway.history(sessionKey: "main").count < messages {
            index += 1
            _ = try await client.send(
                sessionKey: "main", message: "question \(index)", idempotencyKey: "seed-\(index)")
            // Runs finish within a few milliseconds; wait for this one so the transcript stays in turn order.
            let settled = await waitUntil(timeout: .seconds(5)) {
                await gateway.history(sessionKey: "main").last?["stopReason"]?.stringValue == "stop"
            }
            guard settled else { throw BenchmarkError.setup("seeding run \(index) did not finish") }
        }
        return await gateway.history(sessionKey: "main").count
    }

    private static func pageBytes(gateway: TestGateway) async -> Int {
        let messages = await gateway.history(sessionKey: "main", limit: 200, maxChars: 12_000)
        return JSONSerializer.bytes(.array(messages)).count
    }
}

import OpenClawTestGateway
import Testing

/// The live line while a tool runs, through the real program on a terminal: what runs and for how long,
/// in the words the app shows too (`LiveActivity`).
@Suite("The running line: the program")
struct RunningLineCLITests {
    @Test(arguments: [3, 4])
    func aRunningToolShowsWhatRunsAndForHowLongThenItsStep(version: Int) async throws {
        var configuration = TestGatewayConfiguration(protocolNumber: version)
        configuration.agent = ScriptedAgent(toolDurationMs: 1_500)
        try await CLITests.withGateway(configuration) { _, common in
            let process = try InteractiveProcess(["send"] + common + ["use a tool"], mode: .terminal)
            defer { process.killIfRunning() }
            try await process.waitFor("running exec: curl -s https://status.example.test/health  ")
            try await process.waitFor("The service is healthy")
            #expect(try await process.waitForExit() == 0)
            let output = process.output
            let timed = output.firstMatch(of: /running exec: curl -s https:\/\/status\.example\.test\/health  \d/)
            #expect(timed != nil, "the running line carries its elapsed time: \(output)")
        }
    }
}

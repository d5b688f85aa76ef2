import Testing

/// `openclaw-chat` runs its tasks on the network's event loops (`NetworkThreads`), as its requests'
/// hop count assumes. `.ci/package-check` runs this against the installed static binary, which stayed
/// on Swift's pool unnoticed while the hook was looked up by name (a static link exports no runtime
/// symbol). What it checks is observed: the entry task asks whether its thread is an event loop.
@Suite("openclaw-chat: where its tasks run")
struct ExecutorCLITests {
    @Test func tasksRunOnTheNetworksEventLoops() async throws {
        try await CLITests.withGateway { _, common in
            let result = try await CLIProcess.run(["status", "--verbose"] + common)
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(result.stderr.contains("concurrency runs on the network's event loops"), "\(result.stderr)")
        }
    }

    /// `search` never connects, so the program does not start the loops for it (their start was a tenth
    /// of a search). A missing store sends it through the usual open, which logs.
    @Test func searchGoesWithoutTheLoops() async throws {
        let state = CLIProcess.temporaryStateDirectory()
        let result = try await CLIProcess.run(["search", "--verbose", "--state-dir", state, "anything"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("concurrency runs on Swift's pool"), "\(result.stderr)")
    }
}

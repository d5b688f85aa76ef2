import Foundation

/// Runs the built `openclaw-chat` executable as a person or a script would, and captures what it says.
struct CLIProcess {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// The `openclaw-chat` built next to this test bundle (`OPENCLAW_CHAT_BINARY` overrides it);
    /// `.build/debug/openclaw-chat` of this package when the bundle's directory has none.
    static let binary: URL = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return ProductLocator.locate(
            "openclaw-chat",
            environment: ProcessInfo.processInfo.environment,
            candidatePaths: ProductLocator.runningTestPaths,
            isExecutable: { FileManager.default.isExecutableFile(atPath: $0) },
            fallback: root.appendingPathComponent(".build/debug/openclaw-chat")
        )
    }()

    static func run(
        _ arguments: [String],
        stdin: String? = nil,
        environment: [String: String] = [:],
        timeout: Duration = .seconds(30)
    ) async throws -> Result {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for key in [
            "OPENCLAW_GATEWAY_URL", "OPENCLAW_GATEWAY_TOKEN", "OPENCLAW_GATEWAY_PASSWORD", "OPENCLAW_STATE_DIR",
        ] {
            env.removeValue(forKey: key)
        }
        env["NO_COLOR"] = "1"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        // Blocking reads get threads of their own: on the cooperative pool they would starve the
        // in-process gateway the subprocess talks to.
        async let stdoutData = readToEnd(out.fileHandleForReading)
        async let stderrData = readToEnd(err.fileHandleForReading)
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            if ContinuousClock.now > deadline {
                process.terminate()
                break
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: await stdoutData, as: UTF8.self),
            stderr: String(decoding: await stderrData, as: UTF8.self)
        )
    }

    private static func readToEnd(_ handle: FileHandle) async -> Data {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: handle.readDataToEndOfFile()) }.start()
        }
    }

    static func temporaryStateDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("openclaw-cli-\(UUID().uuidString)").path
    }
}

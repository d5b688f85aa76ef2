#if canImport(Subprocess)
    import Subprocess
    import SystemPackage

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// Runs processes with swift-subprocess, each in a process group of its own (`setpgid(0, 0)`), so a
    /// timeout or cancellation kills the command and everything it started (`kill(-pgid, SIGKILL)`),
    /// not just the first process. Never through a shell: argv goes to `posix_spawn` as given.
    public struct SubprocessRunner: ProcessRunner {
        public init() {}

        public func run(_ request: ProcessRequest) async throws(NodeInvokeError) -> ProcessOutcome {
            try await run(request, output: nil)
        }

        public func run(
            _ request: ProcessRequest, output sink: (@Sendable ([UInt8]) async -> Void)?
        ) async throws(NodeInvokeError) -> ProcessOutcome {
            var options = PlatformOptions()
            options.processGroupID = 0
            // On cancellation (invoke timeout, node.invoke.cancel, shutdown): SIGKILL to the group.
            options.teardownSequence = [.send(signal: .kill, toProcessGroup: true, allowedDurationToNextStep: .zero)]
            var environment: [Environment.Key: String] = [:]
            for (name, value) in request.environment {
                if let key = Environment.Key(rawValue: name) { environment[key] = value }
            }
            let configuration = Configuration(
                executable: .path(FilePath(request.executablePath)),
                arguments: Arguments(executablePathOverride: request.argv0, remainingValues: request.arguments),
                environment: request.replacesEnvironment
                    ? .custom(environment) : .inherit.updating(environment.mapValues { $0 }),
                workingDirectory: request.workingDirectory.map { FilePath($0) },
                platformOptions: options
            )
            let limit = request.outputLimit
            let timeoutMs = request.timeoutMs
            do {
                let result = try await Subprocess.run(configuration, input: .none, output: .sequence, error: .sequence)
                {
                    execution in
                    // Cancellation kills the group even when the first process already exited and
                    // only its children hold the pipes (the teardown sequence skips exited processes).
                    try await withTaskCancellationHandler {
                        try await Self.collect(execution, limit: limit, timeoutMs: timeoutMs, sink: sink)
                    } onCancel: {
                        try? execution.send(signal: .kill, toProcessGroup: true)
                    }
                }
                var outcome = result.closureResult
                switch result.terminationStatus {
                case .exited(let code): outcome.exitCode = Int(code)
                case .signaled(let signal): outcome.signal = Int(signal)
                }
                return outcome
            } catch let error as NodeInvokeError {
                throw error
            } catch is CancellationError {
                throw .cancelled
            } catch {
                throw NodeInvokeError(.failed, "could not start \(request.argv0): \(error)")
            }
        }

        /// Reads both streams to their end (all writers in the group closed them), capped; a timer
        /// kills the group when `timeoutMs` passes first.
        private static func collect(
            _ execution: Execution<NoInput, SequenceOutput, SequenceOutput>, limit: Int, timeoutMs: Int?,
            sink: (@Sendable ([UInt8]) async -> Void)?
        ) async throws -> ProcessOutcome {
            async let stdout = read(execution.standardOutput, limit: limit, sink: sink)
            async let stderr = read(execution.standardError, limit: limit)
            // Unstructured so that the reads are not held by it: cancelled as soon as both streams end.
            let timer: Task<Bool, Never>? = timeoutMs.map { timeoutMs in
                Task {
                    do {
                        try await Task.sleep(for: .milliseconds(timeoutMs))
                    } catch {
                        return false
                    }
                    try? execution.send(signal: .kill, toProcessGroup: true)
                    return true
                }
            }
            let (out, err) = try await (stdout, stderr)
            timer?.cancel()
            let timedOut = await timer?.value ?? false
            return ProcessOutcome(
                exitCode: nil, timedOut: timedOut, stdout: out.text, stderr: err.text,
                truncated: out.truncated || err.truncated)
        }

        private static func read(
            _ sequence: SubprocessOutputSequence, limit: Int, sink: (@Sendable ([UInt8]) async -> Void)? = nil
        ) async throws -> CappedOutput {
            var output = CappedOutput(limit: limit)
            for try await buffer in sequence {
                buffer.withUnsafeBytes { output.append($0) }
                if let sink { await sink(buffer.withUnsafeBytes { Array($0) }) }
            }
            return output
        }
    }
#endif

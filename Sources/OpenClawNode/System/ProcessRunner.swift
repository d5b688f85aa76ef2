/// One process to start: already approved, environment already sanitised.
public struct ProcessRequest: Sendable, Hashable {
    public var executablePath: String
    /// The arguments after `argv[0]`.
    public var arguments: [String]
    /// `argv[0]` as the agent wrote it (programs that look at their own name see it).
    public var argv0: String
    public var workingDirectory: String?
    /// Added to the node's own environment, or (``replacesEnvironment``) the whole environment.
    public var environment: [String: String]
    /// An agent's command gets only what ``ExecEnvironmentPolicy`` built, never the node's own
    /// variables (its token, `SSH_AUTH_SOCK`); the node's own helpers (`notify-send`) inherit.
    public var replacesEnvironment: Bool
    public var timeoutMs: Int?
    /// Per stream; output beyond it is read and dropped, and `truncated` is set.
    public var outputLimit: Int

    public init(
        executablePath: String, arguments: [String], argv0: String, workingDirectory: String? = nil,
        environment: [String: String] = [:], replacesEnvironment: Bool = false, timeoutMs: Int? = nil,
        outputLimit: Int = 200_000
    ) {
        self.replacesEnvironment = replacesEnvironment
        self.executablePath = executablePath
        self.arguments = arguments
        self.argv0 = argv0
        self.workingDirectory = workingDirectory
        self.environment = environment
        self.timeoutMs = timeoutMs
        self.outputLimit = outputLimit
    }
}

/// How a process ended.
public struct ProcessOutcome: Sendable, Hashable {
    /// Nil when it was killed by a signal.
    public var exitCode: Int?
    public var signal: Int?
    public var timedOut: Bool
    public var stdout: String
    public var stderr: String
    public var truncated: Bool

    public init(
        exitCode: Int?, signal: Int? = nil, timedOut: Bool = false, stdout: String = "", stderr: String = "",
        truncated: Bool = false
    ) {
        self.exitCode = exitCode
        self.signal = signal
        self.timedOut = timedOut
        self.stdout = stdout
        self.stderr = stderr
        self.truncated = truncated
    }
}

/// Starts processes. The live one uses swift-subprocess; tests of the policy use a recording fake
/// to prove that a refused command never reaches this point.
public protocol ProcessRunner: Sendable {
    /// Runs to completion, or until `timeoutMs` or task cancellation, either of which kills the
    /// process's whole group. Throws only when the process could not be started.
    func run(_ request: ProcessRequest) async throws(NodeInvokeError) -> ProcessOutcome

    /// Like ``run(_:)``, handing each piece of standard output to `output` as it is read, in order, before
    /// reading on (the outcome still carries the capped whole).
    func run(
        _ request: ProcessRequest, output: (@Sendable ([UInt8]) async -> Void)?
    ) async throws(NodeInvokeError) -> ProcessOutcome
}

extension ProcessRunner {
    /// Runners that cannot stream (the test fakes) answer with the whole output at the end only.
    public func run(
        _ request: ProcessRequest, output: (@Sendable ([UInt8]) async -> Void)?
    ) async throws(NodeInvokeError) -> ProcessOutcome {
        try await run(request)
    }
}

/// Keeps the first `limit` bytes of a stream and counts the rest.
struct CappedOutput: Sendable {
    let limit: Int
    private(set) var bytes: [UInt8] = []
    private(set) var truncated = false

    init(limit: Int) {
        self.limit = max(0, limit)
    }

    mutating func append(_ chunk: UnsafeRawBufferPointer) {
        let room = limit - bytes.count
        if chunk.count > room { truncated = true }
        if room > 0 { bytes.append(contentsOf: chunk.prefix(room)) }
    }

    /// The kept bytes as text; a multi-byte character cut at the limit becomes U+FFFD.
    var text: String { String(decoding: bytes, as: UTF8.self) }
}

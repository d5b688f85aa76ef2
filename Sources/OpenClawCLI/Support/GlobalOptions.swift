import ArgumentParser
import Logging
import OpenClawGateway
import OpenClawProtocol
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Options every command that talks to a gateway accepts.
struct GlobalOptions: ParsableArguments {
    @Option(help: "Gateway URL: ws(s)://host:port[/path] (or OPENCLAW_GATEWAY_URL).")
    var url: String?

    @Option(help: "Gateway token (or OPENCLAW_GATEWAY_TOKEN).")
    var token: String?

    @Option(help: "Gateway password, for gateways configured with one (or OPENCLAW_GATEWAY_PASSWORD).")
    var password: String?

    @Option(
        name: .customLong("gateway"),
        help: "A saved gateway by name (see 'openclaw-chat gateways'); default: the current one.")
    var gatewayName: String?

    @Option(
        name: .customLong("state-dir"), help: "Identity, credentials and database directory (or OPENCLAW_STATE_DIR).")
    var stateDir: String?

    @Flag(help: "Log connection steps to stderr.")
    var verbose = false

    @Flag(help: "Print every raw frame to stderr, secrets redacted.")
    var trace = false

    @Option(
        name: .customLong("tls-fingerprint"),
        help: "wss:// only: the gateway certificate's SHA-256 (sha256:…); pinned once it matches.")
    var tlsFingerprint: String?

    @Flag(
        name: .customLong("trust-on-first-use"),
        help: "wss:// only: pin the certificate presented on the first connection without asking (scripts).")
    var trustOnFirstUse = false

    func validate() throws {
        if let gatewayName, !GatewayProfiles.isValidName(gatewayName) {
            throw ValidationError("--gateway takes a saved gateway's name (letters, digits, '.', '_', '-')")
        }
        if gatewayName != nil, url != nil { throw ValidationError("use either --gateway or --url, not both") }
        if let tlsFingerprint, TLSFingerprint(parsing: tlsFingerprint) == nil {
            throw ValidationError("--tls-fingerprint must be a SHA-256: 64 hex digits, optionally sha256:-prefixed")
        }
    }

    var environment: [String: String] { ProcessEnvironment.current }

    var state: StateDirectory { StateDirectory(explicit: stateDir, environment: environment) }

    /// The saved gateways (a single-gateway file of an earlier version is migrated on first read).
    func profiles() throws -> GatewayProfiles {
        try GatewayProfiles.loadMigrating(from: state.loginFile)
    }

    /// The saved gateway this command is about: `--gateway NAME`, else the current one. Nil when none
    /// is saved; an unknown name is an error that lists the known ones.
    func selectedProfile() throws -> GatewayProfile? {
        try selectedProfile(in: profiles())
    }

    private func selectedProfile(in profiles: GatewayProfiles) throws -> GatewayProfile? {
        guard let gatewayName else { return profiles.current }
        return try profiles.named(gatewayName)
    }

    /// The gateway to use: flags first, then environment variables, then the selected saved gateway.
    /// Nil when nothing is configured anywhere. `localDefault: false` leaves out the local gateway a
    /// token given alone means (`node`, whose gateway sends it commands, never guesses one).
    func resolveGateway(localDefault: Bool = true) throws -> (url: GatewayURL, credential: GatewayCredential)? {
        // One read of the saved gateways for the address and the secret.
        let profiles = try profiles()
        let selected = try selectedProfile(in: profiles)
        guard
            let urlText = configuredURLText(selected: selected)
                ?? (localDefault ? localGatewayForGivenSecret(selected: selected) : nil)
        else { return nil }
        let parsed: GatewayURL
        do {
            parsed = try GatewayURL(parsing: urlText)
        } catch {
            throw GatewayError.invalidURL(error)
        }
        // A gateway picked by name uses its own saved secret: the environment's belongs to whatever
        // gateway the environment names, and must not travel to another one.
        let environmentSecrets = gatewayName == nil
        // The selected gateway's secret when it is this address, else any saved one's for it.
        let saved = ([selected].compactMap { $0 } + profiles.profiles).first { $0.address == parsed }
        let credential: GatewayCredential
        if let token, !token.isEmpty {
            credential = .token(token)
        } else if let password, !password.isEmpty {
            credential = .password(password)
        } else if environmentSecrets, let token = environment["OPENCLAW_GATEWAY_TOKEN"], !token.isEmpty {
            credential = .token(token)
        } else if environmentSecrets, let password = environment["OPENCLAW_GATEWAY_PASSWORD"], !password.isEmpty {
            credential = .password(password)
        } else if let saved {
            credential = saved.credential
        } else {
            credential = .none
        }
        return (parsed, credential)
    }

    /// A token or password given without any address means the gateway on this machine, where
    /// `openclaw gateway` listens by default: said once on stderr, so the person knows which was used.
    private func localGatewayForGivenSecret(selected: GatewayProfile?) -> String? {
        guard usesLocalGatewayDefault(selected: selected) else { return nil }
        LocalGatewayNote.sayOnce()
        return LocalGatewayNote.address
    }

    /// Whether no address is configured anywhere but a secret is given as a flag.
    func usesLocalGatewayDefault() throws -> Bool {
        try usesLocalGatewayDefault(selected: selectedProfile())
    }

    private func usesLocalGatewayDefault(selected: GatewayProfile?) -> Bool {
        guard configuredURLText(selected: selected) == nil, gatewayName == nil else { return false }
        // Only a secret given on this command line: one in the environment may be meant for a remote
        // gateway, and must not go to whatever listens on this machine's port.
        return [token, password].contains { $0?.isEmpty == false && $0 != "-" }
    }

    /// The gateway URL as configured (flag, environment, saved gateway), before it is parsed.
    func configuredURLText() throws -> String? {
        configuredURLText(selected: try selectedProfile())
    }

    private func configuredURLText(selected: GatewayProfile?) -> String? {
        if let url, !url.isEmpty { return url }
        if gatewayName == nil, let fromEnvironment = environment["OPENCLAW_GATEWAY_URL"], !fromEnvironment.isEmpty {
            return fromEnvironment
        }
        return selected?.url
    }

    func makeLogger() -> Logger {
        var logger = Logger(label: "openclaw.chat") { label in StderrLogHandler(label: label) }
        logger.logLevel = verbose ? .debug : .warning
        if verbose, Self.executorNoted.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged {
            // Once per process: where tasks run decides the hops of every request (`NetworkThreads`).
            let onLoops = OpenClawChatEntry.entryRanOnEventLoop.load(ordering: .relaxed)
            logger.debug("concurrency runs on \(onLoops ? "the network's event loops" : "Swift's pool")")
        }
        return logger
    }

    private static let executorNoted = Atomic<Bool>(false)

    /// The configured gateway, connected: what every one-shot command starts with.
    func connect(
        terminal: Terminal
    ) async throws -> (connection: GatewayConnection, session: GatewaySession, url: GatewayURL) {
        guard let target = try resolveGateway() else { throw CLIError.noGatewayConfigured }
        let connection = makeConnection(url: target.url, credential: target.credential, terminal: terminal)
        let session = try await OneShotConnect.connect(connection, terminal: terminal) {
            connection throws(GatewayError) in
            try await connectTrusting(connection, terminal: terminal)
        }
        return (connection, session, target.url)
    }

    /// ``connect(terminal:)``, tried once more when the socket dropped during the handshake (a gateway
    /// restarting, a flaky link): for commands whose whole work is the handshake (`status`).
    func connectRetryingOnceOnDrop(
        terminal: Terminal
    ) async throws -> (connection: GatewayConnection, session: GatewaySession, url: GatewayURL) {
        do {
            return try await connect(terminal: terminal)
        } catch let error as GatewayError where error.isDroppedConnection {
            return try await connect(terminal: terminal)
        }
    }

    /// How this invocation trusts `wss://` certificates beyond a stored pin (`--tls-fingerprint`,
    /// `--trust-on-first-use`).
    var certificateTrust: GatewayConnector.CertificateTrust {
        GatewayConnector.CertificateTrust(
            expectedFingerprint: tlsFingerprint.flatMap(TLSFingerprint.init(parsing:)),
            trustOnFirstUse: trustOnFirstUse)
    }

    /// Where this machine's certificate pins live.
    var pinStore: any TLSPinStore { FileTLSPinStore(path: state.tlsPinsFile) }

    /// Sockets opened as this invocation's connections open them (for the doctor's own steps).
    func makeTransport() -> LiveWebSocketTransport { connector.transport(certificateTrust) }

    /// What makes a connection this program's: how it introduces itself, this machine's identity,
    /// device tokens and pins, the logger, and the `--trace` sink.
    var connector: GatewayConnector {
        var traceSink: (@Sendable (FrameTrace) -> Void)?
        if trace {
            traceSink = { frame in
                let arrow = frame.direction == .inbound ? "←" : "→"
                // The frame as the gateway wrote it: its strings may hold anything, JSON escapes or not.
                Terminal.writeAll("\(arrow) \(TerminalText.escapedLine(frame.text))\n", to: STDERR_FILENO)
            }
        }
        return GatewayConnector(
            client: ClientIdentity.terminal,
            userAgent: "openclaw-chat/\(ClientIdentity.version)",
            locale: Locale.current.identifier.replacing("_", with: "-"),
            identityStore: FileDeviceIdentityStore(path: state.identityFile),
            tokenStore: FileDeviceTokenStore(path: state.deviceTokensFile),
            tlsPinStore: pinStore,
            logger: makeLogger(),
            traceFrame: traceSink
        )
    }

    /// Connects; when a `wss://` gateway presents a certificate seen for the first time and a person is
    /// at the terminal, shows its fingerprint and asks whether to pin it (then connects again). Scripts
    /// get the typed error with the fingerprint and pass --tls-fingerprint or --trust-on-first-use.
    func connectTrusting(
        _ connection: GatewayConnection, terminal: Terminal
    ) async throws(GatewayError)
        -> GatewaySession
    {
        do {
            return try await connection.connect()
        } catch .transport(.tlsTrust(.firstUse(let host, let certificate))) {
            let url = connection.configuration.url
            guard TrustPrompt.isInteractive, TrustPrompt.ask(url: url, host: host, certificate: certificate) else {
                throw .transport(.tlsTrust(.firstUse(host: host, certificate: certificate)))
            }
            do {
                try pinStore.trust(certificate, for: url)
            } catch {
                throw .localStorage(error.description)
            }
            terminal.errorLine("Pinned \(certificate.fingerprint) for \(TerminalText.escapedLine(url.tlsPinKey)).")
            return try await connection.connect()
        }
    }

    /// Runs one request on a fresh connection and closes it. A connection that drops under the request (a
    /// gateway restart, a flaky link) gets one more try on a new socket; every other error is reported.
    func withConnection<T: Sendable>(
        terminal: Terminal, _ body: @Sendable (GatewayConnection) async throws -> T
    ) async throws -> T {
        var attempt = 1
        while true {
            let connection = try await connect(terminal: terminal).connection
            do {
                let result = try await body(connection)
                await connection.disconnect()
                return result
            } catch let error as GatewayError {
                await connection.disconnect()
                guard attempt == 1, error.isDroppedConnection else { throw error }
                attempt += 1
            } catch {
                await connection.disconnect()
                throw error
            }
        }
    }

    /// A connection to `url` with this machine's identity and stored device tokens.
    ///
    /// No automatic reconnecting unless asked for: a one-shot command (send, history, status, doctor,
    /// login) reports a lost connection and exits rather than wait for a gateway that may not return;
    /// only the interactive chat passes a policy.
    func makeConnection(
        url: GatewayURL, credential: GatewayCredential, terminal: Terminal, reconnect: ReconnectPolicy? = nil,
        retriesWithDeviceToken: Bool = true,
        configure: (inout GatewayConnectionConfiguration) -> Void = { _ in },
        trust: GatewayConnector.CertificateTrust? = nil, connectTimeout: Duration? = nil
    ) -> GatewayConnection {
        connector.connection(
            to: url, credential: credential, reconnect: reconnect, trust: trust ?? certificateTrust
        ) { configuration in
            configuration.retriesWithDeviceToken = retriesWithDeviceToken
            configure(&configuration)
            if let connectTimeout {
                configuration.connectTimeout = connectTimeout
                configuration.challengeTimeout = connectTimeout
            }
        }
    }
}

/// How this client introduces itself to gateways.
enum ClientIdentity {
    static var version: String { BuildInfo.version }

    /// `platform` must stay stable across OS updates: the gateway pins it at pairing and asks for a new
    /// approval when it changes. So it names the OS family, never its version.
    static var terminal: ClientInfo {
        #if os(macOS)
            let platform = "macos"
        #else
            let platform = "linux"
        #endif
        return ClientInfo(
            id: .cli,
            mode: .cli,
            version: version,
            platform: platform,
            displayName: "openclaw-chat on \(ProcessInfo.processInfo.hostName)",
            deviceFamily: "terminal"
        )
    }
}

/// A swift-log handler that writes plain lines to stderr.
struct StderrLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .warning
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let details =
            merged.isEmpty ? "" : " " + merged.sorted { $0.key < $1.key }.map { "\($0)=\($1)" }.joined(separator: " ")
        // Messages and metadata quote the gateway (its errors, ids, addresses): one escaped line each.
        Terminal.writeAll(
            "[\(event.level)] \(TerminalText.escapedLine("\(event.message)\(details)"))\n", to: STDERR_FILENO)
    }
}

extension GatewayError {
    /// The socket went away under a request: worth one more try on a new one.
    var isDroppedConnection: Bool {
        switch self {
        case .connectionLost, .notConnected: true
        default: false
        }
    }
}

import NIOCore
import NIOPosix
import OpenClawProtocol

/// Walks a connection step by step (URL, DNS, TCP, TLS, WebSocket upgrade, challenge, protocol, auth,
/// pairing, scopes) and says, for the first step that fails, exactly what to do. Shared by the
/// terminal's `doctor` and the app's "test connection".
public struct GatewayDiagnosis: Sendable {
    public let urlText: String
    public let credential: GatewayCredential
    public let makeConnection: @Sendable (GatewayURL) -> GatewayConnection
    public let transport: any WebSocketTransport
    /// Where certificate pins live, so the TLS step can say whether this gateway's certificate is pinned.
    public let tlsPins: (any TLSPinStore)?

    public init(
        urlText: String,
        credential: GatewayCredential,
        transport: any WebSocketTransport = LiveWebSocketTransport(),
        tlsPins: (any TLSPinStore)? = nil,
        makeConnection: @escaping @Sendable (GatewayURL) -> GatewayConnection
    ) {
        self.urlText = urlText
        self.credential = credential
        self.transport = transport
        self.tlsPins = tlsPins
        self.makeConnection = makeConnection
    }

    /// Runs every step, reporting each as it completes; stops at the first failure and reports the
    /// remaining steps as skipped. Returns all steps.
    @discardableResult
    public func run(report: @Sendable (DiagnosisStep) -> Void = { _ in }) async -> [DiagnosisStep] {
        var steps: [DiagnosisStep] = []
        func record(_ step: DiagnosisStep) {
            steps.append(step)
            report(step)
        }
        func skipRest() {
            let done = Set(steps.map(\.kind))
            for kind in DiagnosisStepKind.allCases where !done.contains(kind) {
                record(DiagnosisStep(kind: kind, outcome: .skipped, detail: "not checked"))
            }
        }

        let url: GatewayURL
        do {
            url = try GatewayURL(parsing: urlText)
            record(DiagnosisStep(kind: .url, outcome: .passed, detail: url.description))
        } catch {
            let failure = GatewayError.invalidURL(error)
            record(
                DiagnosisStep(
                    kind: .url, outcome: .failed, detail: failure.message, fix: failure.nextStep, error: failure))
            skipRest()
            return steps
        }

        guard await checkNetwork(url, record: record) else {
            skipRest()
            return steps
        }
        guard await checkUpgradeAndChallenge(url, record: record) else {
            skipRest()
            return steps
        }
        await checkHandshake(url, record: record)
        skipRest()
        return steps
    }

    private func checkNetwork(_ url: GatewayURL, record: (DiagnosisStep) -> Void) async -> Bool {
        let addresses: [SocketAddress]
        do {
            addresses = try await resolve(host: url.host, port: url.port)
            let shown = addresses.prefix(2).compactMap(\.ipAddress).joined(separator: ", ")
            record(DiagnosisStep(kind: .dns, outcome: .passed, detail: "\(url.host) → \(shown)"))
        } catch {
            let failure = GatewayError.transport(.hostNotFound(host: url.host))
            record(
                DiagnosisStep(
                    kind: .dns, outcome: .failed, detail: failure.message, fix: failure.nextStep, error: failure))
            return false
        }
        let started = ContinuousClock.now
        do {
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(.seconds(5))
                .connect(host: url.host, port: url.port).get()
            try? await channel.close().get()
            let elapsed = (ContinuousClock.now - started).milliseconds
            record(DiagnosisStep(kind: .tcp, outcome: .passed, detail: "port \(url.port) open (\(elapsed) ms)"))
            return true
        } catch {
            let failure = GatewayError.transport(.connectionRefused(host: url.host, port: url.port))
            record(
                DiagnosisStep(
                    kind: .tcp, outcome: .failed, detail: failure.message, fix: failure.nextStep, error: failure))
            return false
        }
    }

    private func checkUpgradeAndChallenge(_ url: GatewayURL, record: (DiagnosisStep) -> Void) async -> Bool {
        let socket: any WebSocketConnection
        do {
            socket = try await transport.connect(to: url, maxFrameSize: GatewayLimits.maxPreauthPayloadBytes)
        } catch {
            let failure = GatewayError.transport(error)
            if error.isTLSFailure {
                record(
                    DiagnosisStep(
                        kind: .tls, outcome: .failed, detail: failure.message, fix: failure.nextStep, error: failure))
            } else {
                record(tlsStep(url))
                record(
                    DiagnosisStep(
                        kind: .webSocket, outcome: .failed, detail: failure.message, fix: failure.nextStep,
                        error: failure))
            }
            return false
        }
        record(tlsStep(url))
        record(DiagnosisStep(kind: .webSocket, outcome: .passed, detail: "upgraded, no Origin header sent"))
        let started = ContinuousClock.now
        let challenge = await firstOf(timeout: .seconds(6)) { () async -> Result<ConnectChallenge, GatewayError> in
            for await event in socket.events {
                guard case .text(let text) = event else { continue }
                if case .event(let frame)? = try? FrameCodec().decode(text),
                    frame.event == GatewayEventName.connectChallenge
                {
                    return ConnectChallenge.parse(frame.payload).mapError(GatewayError.invalidChallenge)
                }
            }
            return .failure(.challengeTimeout(afterMs: 6000))
        } onLateSuccess: { _ in
        }
        await socket.close(code: GatewayCloseCode.normal)
        switch challenge ?? .failure(.challengeTimeout(afterMs: 6000)) {
        case .success: break
        case .failure(let failure):
            record(
                DiagnosisStep(
                    kind: .challenge, outcome: .failed, detail: failure.message, fix: failure.nextStep, error: failure))
            return false
        }
        let elapsed = (ContinuousClock.now - started).milliseconds
        record(DiagnosisStep(kind: .challenge, outcome: .passed, detail: "connect.challenge received (\(elapsed) ms)"))
        return true
    }

    private func checkHandshake(_ url: GatewayURL, record: (DiagnosisStep) -> Void) async {
        let connection = makeConnection(url)
        let session: GatewaySession
        do {
            session = try await connection.connect()
        } catch {
            let step: DiagnosisStepKind
            switch error {
            case .protocolMismatch, .unsupportedProtocol: step = .protocolVersion
            case .pairingRequired: step = .pairing
            case .missingScope: step = .scopes
            default: step = .auth
            }
            if step != .protocolVersion {
                record(DiagnosisStep(kind: .protocolVersion, outcome: .passed, detail: "offered 3–4"))
            }
            if step == .pairing {
                record(DiagnosisStep(kind: .auth, outcome: .passed, detail: "\(credentialName) accepted"))
            }
            record(
                DiagnosisStep(kind: step, outcome: .failed, detail: error.message, fix: error.nextStep, error: error))
            return
        }
        let hello = session.hello
        record(
            DiagnosisStep(
                kind: .protocolVersion,
                outcome: .passed,
                detail: "\(session.protocolVersion.rawValue) (gateway \(hello.server.version))"
            )
        )
        record(DiagnosisStep(kind: .auth, outcome: .passed, detail: "\(credentialName) accepted"))
        record(
            DiagnosisStep(kind: .pairing, outcome: .passed, detail: "device \(session.deviceId.prefix(12))… approved"))
        do {
            _ = try await connection.call(ChatHistoryParams(sessionKey: "main", limit: 1))
            let tokenScopes = hello.auth?.scopes ?? session.scopes
            let canWrite = tokenScopes.contains(OperatorScope.write) || tokenScopes.contains(OperatorScope.admin)
            if canWrite {
                record(DiagnosisStep(kind: .scopes, outcome: .passed, detail: session.scopes.joined(separator: ", ")))
            } else {
                record(
                    DiagnosisStep(
                        kind: .scopes,
                        outcome: .failed,
                        detail: "this device may read but not send (granted: \(tokenScopes.joined(separator: ", ")))",
                        fix: "Approve the device with operator.write on the gateway host, then reconnect."
                    )
                )
            }
        } catch {
            record(
                DiagnosisStep(kind: .scopes, outcome: .failed, detail: error.message, fix: error.nextStep, error: error)
            )
        }
        await connection.disconnect()
    }

    private var credentialName: String {
        switch credential {
        case .token: return "token"
        case .password: return "password"
        case .none: return "device token"
        case .bootstrapToken: return "setup code"
        }
    }

    /// After a completed handshake: for `wss://`, which certificate and whether it is pinned.
    private func tlsStep(_ url: GatewayURL) -> DiagnosisStep {
        guard url.isSecure else { return DiagnosisStep(kind: .tls, outcome: .skipped, detail: "not used (ws://)") }
        guard let tlsPins else { return DiagnosisStep(kind: .tls, outcome: .passed, detail: "handshake completed") }
        let detail: String
        do {
            if let pin = try tlsPins.pin(for: url.tlsPinKey) {
                detail = "certificate \(pin.fingerprint) matches the pin"
            } else {
                detail = "certificate trusted by the system (not pinned)"
            }
        } catch {
            detail = "handshake completed; the pins could not be read: \(error.description)"
        }
        return DiagnosisStep(kind: .tls, outcome: .passed, detail: detail)
    }

    /// Blocking `getaddrinfo` off the cooperative pool.
    private func resolve(host: String, port: Int) async throws -> [SocketAddress] {
        try await Task.detached {
            [try SocketAddress.makeAddressResolvingHost(host, port: port)]
        }.value
    }
}

import Foundation
import Observation
import OpenClawGateway

/// The gateway form of onboarding and settings: address, credential, "Test connection", save.
///
/// "Test connection" runs the same ``GatewayDiagnosis`` as the terminal's `doctor` and publishes each
/// step the moment it completes, so a slow step (DNS, a TLS handshake) shows as the one running.
@MainActor
@Observable
public final class SettingsModel {
    public enum CredentialKind: String, Sendable, CaseIterable, Identifiable {
        case token
        case password
        /// No shared secret: gateways with `auth.mode: none`, or a paired device signing in with its
        /// device token.
        case none

        public var id: String { rawValue }

        public var label: String {
            switch self {
            case .token: "Token"
            case .password: "Password"
            case .none: "None"
            }
        }
    }

    public var urlText: String
    public var credentialKind: CredentialKind
    /// The token or password as typed.
    public var secret: String
    /// Steps of the running or last "Test connection", in the order they completed.
    public private(set) var steps: [DiagnosisStep] = []
    public private(set) var isTesting = false
    /// Why the last save failed.
    public private(set) var saveError: String?
    /// Why the last setup code did not pair (malformed, expired, used, unreachable …) and what to do.
    public internal(set) var setupCodeError: String?

    public var address: GatewayAddressCheck { GatewayAddressCheck(urlText) }

    public var credential: GatewayCredential {
        let trimmed = secret.trimmingCharacters(in: .whitespacesAndNewlines)
        switch credentialKind {
        case .token where !trimmed.isEmpty: return .token(trimmed)
        case .password where !secret.isEmpty: return .password(secret)
        case .token, .password, .none: return .none
        }
    }

    public var canSave: Bool { address.url != nil && !isTesting }
    public var canTest: Bool { address.url != nil && !isTesting }

    /// Every diagnosis step, filled in as far as the test got.
    public var diagnosisRows: [DiagnosisRow] {
        steps.isEmpty && !isTesting ? [] : DiagnosisRow.rows(for: steps, isRunning: isTesting)
    }

    /// The verdict of the finished test: nil while none ran or one runs.
    public var testPassed: Bool? {
        guard !isTesting, !steps.isEmpty else { return nil }
        return !steps.contains { $0.outcome == .failed }
    }

    @ObservationIgnored private let transport: any WebSocketTransport
    @ObservationIgnored private let tlsPins: (any TLSPinStore)?
    @ObservationIgnored private let makeConnection: @Sendable (GatewayURL, GatewayCredential) -> GatewayConnection
    @ObservationIgnored private var testTask: Task<Void, Never>?

    /// - Parameter makeConnection: builds the connection the diagnosis signs in with: the app's own
    ///   (client identity, device identity), so a passing test means the app will connect.
    public init(
        saved: SavedGateway? = nil,
        transport: any WebSocketTransport = LiveWebSocketTransport(),
        tlsPins: (any TLSPinStore)? = nil,
        makeConnection: @escaping @Sendable (GatewayURL, GatewayCredential) -> GatewayConnection
    ) {
        self.transport = transport
        self.tlsPins = tlsPins
        self.makeConnection = makeConnection
        self.urlText = ""
        self.credentialKind = .token
        self.secret = ""
        load(saved)
    }

    /// Fills the form from a saved gateway (or clears it).
    public func load(_ saved: SavedGateway?) {
        cancelTest()
        steps = []
        saveError = nil
        urlText = saved?.url.absoluteString ?? ""
        switch saved?.credential {
        case .token(let token)?:
            credentialKind = .token
            secret = token
        case .password(let password)?:
            credentialKind = .password
            secret = password
        case .none?, .bootstrapToken?:
            credentialKind = .none
            secret = ""
        case nil:
            credentialKind = .token
            secret = ""
        }
    }

    /// Runs the diagnosis with what the form holds, publishing each step as it completes.
    public func testConnection() async {
        cancelTest()
        steps = []
        isTesting = true
        let credential = credential
        let makeConnection = makeConnection
        let diagnosis = GatewayDiagnosis(
            urlText: urlText, credential: credential, transport: transport, tlsPins: tlsPins
        ) { url in
            makeConnection(url, credential)
        }
        let (reports, continuation) = AsyncStream.makeStream(of: DiagnosisStep.self)
        // Unstructured so that a newer test or a cancel can stop it from outside; followed through `reports`.
        let run = Task {
            await diagnosis.run { continuation.yield($0) }
            continuation.finish()
        }
        testTask = run
        for await step in reports {
            // A newer test (or a cancel) took over: this run's late steps are not shown.
            guard testTask == run else { break }
            steps.append(step)
        }
        if testTask == run {
            testTask = nil
            isTesting = false
        }
    }

    /// Stops a running test (the form was edited or closed).
    public func cancelTest() {
        testTask?.cancel()
        testTask = nil
        isTesting = false
    }

    /// The gateway to save, or nil with ``saveError`` set.
    func validatedGateway() -> SavedGateway? {
        guard let url = address.url else {
            saveError = address.problem
            return nil
        }
        saveError = nil
        return SavedGateway(url: url, credential: credential)
    }

    func reportSaveFailure(_ error: CredentialStorageError) {
        saveError = "The settings could not be saved on this device (\(error.reason))."
    }
}

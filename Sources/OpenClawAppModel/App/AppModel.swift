import Observation
import OpenClawChat
import OpenClawGateway

/// The root of the app: which screen shows, the saved gateway, and the models of each screen.
///
/// Every decision of the app is made here or in the models it owns, all platform-neutral and tested on
/// Linux; the SwiftUI views only render them and forward taps. It wires connections exactly as the
/// terminal client does (same engine, same chat view model), as `openclaw-ios` in mode `ui`.
@MainActor
@Observable
public final class AppModel {
    public internal(set) var screen: AppScreen = .launching
    /// Every saved gateway, for the settings list (switch, remove), as the store last had them.
    public internal(set) var gateways = SavedGateways()
    /// The gateway the app connects to; nil until onboarding saves one.
    public var saved: SavedGateway? { gateways.current }
    /// The gateway form, for onboarding and for the settings sheet.
    public let settings: SettingsModel
    /// Gateways found on this network, offered during onboarding.
    public let discovery: DiscoveryModel
    /// The conversation with the saved gateway, once there is one.
    public private(set) var context: ChatContext?
    /// While the gateway waits for this device's approval.
    public private(set) var pairing: PairingModel?
    /// While demo mode runs.
    public private(set) var demo: DemoModel?
    public let debugFrames: DebugFramesModel
    /// A problem to show on the onboarding screen (the saved gateway could not be read).
    public internal(set) var notice: String?
    /// The chat store was damaged and recovered at launch: what happened, and how many queued messages
    /// could not be recovered — they exist nowhere else, so the person is told until they dismiss it.
    public private(set) var storeWarning: String?
    /// A `wss://` gateway's certificate seen for the first time, waiting for the person's yes or no.
    public internal(set) var certificateTrust: CertificateTrustRequest?
    /// While a setup code is being used.
    public internal(set) var isPairingWithCode = false

    @ObservationIgnored let dependencies: AppDependencies
    /// Follows the connection's state to open the pairing screen whenever the gateway asks for approval.
    @ObservationIgnored private var pairingWatch: Task<Void, Never>?

    public init(dependencies: AppDependencies) {
        self.dependencies = dependencies
        storeWarning = dependencies.storeWarning
        let debugFrames = DebugFramesModel(capacity: dependencies.frameCapacity, isEnabled: dependencies.recordsFrames)
        self.debugFrames = debugFrames
        let trace = debugFrames.sink
        discovery = DiscoveryModel(browser: dependencies.gatewayBrowser)
        // The form's test opens its sockets as the chat will: through the pins, so it passes where the
        // chat connects (a pinned self-signed gateway) and refuses what the chat refuses.
        settings = SettingsModel(
            transport: dependencies.connector(traceFrame: nil).transport(), tlsPins: dependencies.tlsPinStore
        ) { url, credential in
            dependencies.makeConnection(url: url, credential: credential, traceFrame: trace)
        }
    }

    // MARK: Launch and settings

    /// Reads the saved gateway and opens its chat, or shows onboarding.
    public func launch() async {
        guard screen == .launching else { return }
        do {
            gateways = try dependencies.credentials.loadAll()
        } catch {
            notice = error.description
        }
        settings.load(saved)
        if let saved {
            await open(saved)
        } else {
            screen = .onboarding
        }
    }

    public func dismissStoreWarning() { storeWarning = nil }

    /// Fills the settings form with the saved gateway, before showing it.
    public func editSettings() {
        settings.load(saved)
    }

    /// Saves the form and connects to the gateway it names; false when it could not be saved (the
    /// form says why). Saving the gateway already in use only reconnects if needed.
    @discardableResult
    public func saveSettings() async -> Bool {
        guard let gateway = settings.validatedGateway() else { return false }
        settings.cancelTest()
        let previous = saved
        do {
            try dependencies.credentials.save(gateway)
        } catch {
            settings.reportSaveFailure(error)
            return false
        }
        reloadGateways()
        notice = nil
        if gateway == previous, context != nil {
            if screen != .pairing { screen = .chat }
            await reconnect()
            return true
        }
        await open(gateway)
        return true
    }

    /// Forgets the current gateway (the device identity and its pairing stay): the next saved gateway
    /// opens, or onboarding when none is left.
    public func signOut() async {
        guard let saved else {
            await closeContext()
            screen = .onboarding
            return
        }
        await removeGateway(saved.url)
    }

    // MARK: Connection

    /// The app came to the foreground (`active`) or left it. Back in front, a connection that is not
    /// healthy is reopened at once (a socket that died while the app was suspended, a backoff wait, a
    /// pause); a healthy one is left alone. On the pairing screen it checks at once: the person has most
    /// likely just approved the device elsewhere.
    public func scenePhaseChanged(active: Bool) async {
        guard active else { return }
        switch screen {
        case .chat, .pairing: await reconnect()
        case .launching, .onboarding, .demo: break
        }
    }

    /// The app went to the background, where the system may end it without a word: the chat store
    /// empties its WAL into the database file, so the next launch does not read the whole file to check
    /// it (a tenth of a second or more on a large store). A store that cannot is checked then instead.
    public func enteredBackground() async {
        _ = try? await dependencies.chatStore.checkpoint()
    }

    /// Reconnects now unless the connection is healthy (the banner's button). While the device waits
    /// for approval, the pairing model's next attempt is made now instead.
    public func reconnect() async {
        if let pairing {
            pairing.checkNow()
            return
        }
        await context?.connection.reconnectNow()
    }

    /// Builds the conversation for `gateway`, shows it and connects.
    func open(_ gateway: SavedGateway) async {
        await closeContext()
        let connection = dependencies.makeConnection(
            url: gateway.url, credential: gateway.credential, traceFrame: debugFrames.sink)
        let context = ChatContext(connection: connection, store: dependencies.chatStore, dependencies: dependencies)
        self.context = context
        screen = .chat
        watchForPairing(context)
        await context.start()
    }

    func closeContext() async {
        pairingWatch?.cancel()
        pairingWatch = nil
        endPairing()
        let closing = context
        context = nil
        await closing?.stop()
    }

    // MARK: Pairing

    /// A refusal asking for approval can come from the first connect, the foreground reconnect, or an
    /// automatic reconnect (the device was removed on the gateway): whichever it is, the connection
    /// stops there (retrying cannot help) and the pairing screen takes over. The state is read again
    /// when a change arrives, so a refusal already settled by a later attempt is not acted on.
    private func watchForPairing(_ context: ChatContext) {
        pairingWatch?.cancel()
        let states = context.connection.stateChanges()
        // Unstructured, owned by the model: replaced for each new chat context, and ends with its connection.
        pairingWatch = Task { [weak self] in
            for await _ in states {
                let state = await context.connection.state
                guard let self, self.context === context else { continue }
                if case .failed(.transport(.tlsTrust(.firstUse(let host, let certificate)))) = state {
                    self.askToTrust(certificate, host: host, url: context.connection.configuration.url)
                    continue
                }
                guard case .failed(.pairingRequired(let request)) = state, self.pairing == nil else { continue }
                self.beginPairing(request, in: context)
            }
        }
    }

    private func beginPairing(_ request: GatewayError.PairingRequest, in context: ChatContext) {
        endPairing()
        let model = PairingModel(
            request: request, connection: context.connection, schedule: dependencies.pairingSchedule,
            sleep: dependencies.sleep)
        pairing = model
        screen = .pairing
        // Unstructured: the pairing screen outlives this call; `endPairing()` cancels the model's wait.
        Task { [weak self] in
            let outcome = await model.waitForApproval()
            self?.pairingEnded(model, outcome: outcome)
        }
    }

    private func pairingEnded(_ model: PairingModel, outcome: PairingModel.Outcome) {
        guard pairing === model else { return }
        pairing = nil
        switch outcome {
        case .approved:
            // This device is approved now, so every pairing refusal the chat shows is settled.
            context?.chat.session.dismissAlerts(where: \.isPairingRequired)
            screen = .chat
        case .failed:
            // The chat's banner shows the error and the way out (settings).
            screen = .chat
        case .cancelled:
            break
        }
    }

    private func endPairing() {
        pairing?.cancel()
        pairing = nil
    }

    // MARK: Demo

    /// Starts the in-process demo gateway and shows its chat.
    public func startDemo() async {
        if demo == nil {
            demo = DemoModel(dependencies: dependencies, traceFrame: debugFrames.sink)
        }
        screen = .demo
        await demo?.start()
    }

    /// Stops the demo and returns to where the app was.
    public func exitDemo() async {
        let running = demo
        demo = nil
        await running?.stop()
        if pairing != nil {
            screen = .pairing
        } else {
            screen = context == nil ? .onboarding : .chat
        }
    }
}

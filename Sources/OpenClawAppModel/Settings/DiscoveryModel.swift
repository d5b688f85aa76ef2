import Observation
import OpenClawGateway

/// Gateways on this network, offered during onboarding: one tap fills the address in the form. The
/// beacon is unauthenticated, so nothing else comes from it: no secret, and an advertised certificate
/// fingerprint is only shown (the first connection's trust sheet is where a certificate is trusted).
@MainActor
@Observable
public final class DiscoveryModel {
    /// What the browser sees now, in the order first seen.
    public private(set) var found: [DiscoveredGateway] = []
    public private(set) var isBrowsing = false
    /// False when this build has no browser (then the section is not shown).
    public var isAvailable: Bool { browser != nil }

    @ObservationIgnored private let browser: (any GatewayBrowser)?
    @ObservationIgnored private var browsing: Task<Void, Never>?

    public init(browser: (any GatewayBrowser)?) {
        self.browser = browser
    }

    /// Starts browsing (onboarding is on screen); a second call does nothing.
    public func start() {
        guard let browser, browsing == nil else { return }
        isBrowsing = true
        let updates = browser.gateways()
        // Unstructured, owned by the model: browsing lasts while onboarding is on screen, until `stop()`.
        browsing = Task { [weak self] in
            for await gateways in updates {
                guard let self, !Task.isCancelled else { return }
                self.found = Self.ordered(gateways, after: self.found)
            }
            self?.isBrowsing = false
        }
    }

    /// Stops browsing (onboarding left the screen); what was found stays listed.
    public func stop() {
        browsing?.cancel()
        browsing = nil
        isBrowsing = false
    }

    /// Fills the form with a found gateway's address (the resolved endpoint, `wss://` when it says TLS).
    public func use(_ gateway: DiscoveredGateway, in settings: SettingsModel) {
        settings.urlText = gateway.url.description
    }

    /// Keeps gateways already listed where they were, so rows do not jump while the list refreshes.
    static func ordered(_ latest: [DiscoveredGateway], after shown: [DiscoveredGateway]) -> [DiscoveredGateway] {
        let key: (DiscoveredGateway) -> String = { "\($0.serviceName)|\($0.domain)" }
        let latestKeys = Set(latest.map(key))
        let kept = shown.filter { latestKeys.contains(key($0)) }.compactMap { old in
            latest.first { key($0) == key(old) }
        }
        let keptKeys = Set(kept.map(key))
        return kept + latest.filter { !keptKeys.contains(key($0)) }
    }
}

import OpenClawGateway

/// The gateways the app knows, one per address, and the one it talks to.
///
/// Keyed by address because everything else is: device tokens, certificate pins and transcripts all
/// belong to an address, so a gateway removed and added again finds them where it left them.
public struct SavedGateways: Sendable, Equatable {
    /// In the order they were first saved.
    public private(set) var entries: [SavedGateway]
    public private(set) var currentURL: GatewayURL?

    public init(_ entries: [SavedGateway] = [], currentURL: GatewayURL? = nil) {
        var unique: [SavedGateway] = []
        for entry in entries where !unique.contains(where: { $0.url == entry.url }) { unique.append(entry) }
        self.entries = unique
        self.currentURL =
            currentURL.flatMap { url in unique.contains { $0.url == url } ? url : nil }
            ?? unique.first?.url
    }

    /// The gateway the app talks to; nil when none is saved.
    public var current: SavedGateway? { currentURL.flatMap(entry(for:)) }

    public func entry(for url: GatewayURL) -> SavedGateway? { entries.first { $0.url == url } }

    /// Adds the gateway, or replaces the one at the same address (a new token), and makes it current.
    public mutating func save(_ gateway: SavedGateway) {
        if let index = entries.firstIndex(where: { $0.url == gateway.url }) {
            entries[index] = gateway
        } else {
            entries.append(gateway)
        }
        currentURL = gateway.url
    }

    /// Makes a saved gateway current; false when none is saved at that address.
    @discardableResult
    public mutating func select(_ url: GatewayURL) -> Bool {
        guard entry(for: url) != nil else { return false }
        currentURL = url
        return true
    }

    /// Forgets a gateway; when it was current, the first remaining one becomes current.
    public mutating func remove(_ url: GatewayURL) {
        entries.removeAll { $0.url == url }
        if currentURL == url { currentURL = entries.first?.url }
    }
}

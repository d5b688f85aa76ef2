import OpenClawChat

/// The context meter under the composer: how much of the model's context window the session fills,
/// from the gateway's live `sessions.changed` usage.
public struct ContextMeter: Sendable, Equatable {
    /// 0…1.
    public let fraction: Double
    /// "41k of 200k tokens".
    public let label: String
    /// Nearly full: the gateway will compact soon, worth a warning colour.
    public var isNearlyFull: Bool { fraction >= 0.8 }

    /// Nil when the gateway has not reported both sides, or the used count is stale.
    public init?(_ usage: SessionUsage?) {
        guard let usage, let fraction = usage.contextFraction, let used = usage.totalTokens,
            let window = usage.contextTokens
        else { return nil }
        self.fraction = fraction
        self.label = "\(TokenCount.short(used)) of \(TokenCount.short(window)) tokens"
    }
}

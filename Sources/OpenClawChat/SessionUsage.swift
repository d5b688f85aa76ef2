import OpenClawProtocol

/// What a session has used, as the gateway last reported it through `sessions.changed`: tokens in
/// and out, the context the latest model call filled, the model's context window and the estimated
/// cost. Each field stays nil until the gateway has said it.
public struct SessionUsage: Sendable, Hashable {
    public var inputTokens: Int?
    public var outputTokens: Int?
    /// The context the latest model call used.
    public var totalTokens: Int?
    /// False when ``totalTokens`` predates the latest call (the gateway has not measured it yet).
    public var totalTokensFresh: Bool?
    /// The context window of the session's model.
    public var contextTokens: Int?
    public var estimatedCostUsd: Double?
    public var model: String?

    public init() {}

    /// This usage with a `sessions.changed` delta merged: left-out fields stay, `null` clears.
    public func merging(_ change: SessionUsageChange) -> SessionUsage {
        var merged = self
        Self.merge(change.inputTokens, into: &merged.inputTokens)
        Self.merge(change.outputTokens, into: &merged.outputTokens)
        Self.merge(change.totalTokens, into: &merged.totalTokens)
        Self.merge(change.totalTokensFresh, into: &merged.totalTokensFresh)
        Self.merge(change.contextTokens, into: &merged.contextTokens)
        Self.merge(change.estimatedCostUsd, into: &merged.estimatedCostUsd)
        Self.merge(change.model, into: &merged.model)
        return merged
    }

    /// How full the context window is, 0…1, for a meter; nil when either side is unknown or the used
    /// count is stale.
    public var contextFraction: Double? {
        guard let used = totalTokens, let window = contextTokens, window > 0, totalTokensFresh != false else {
            return nil
        }
        return min(1, Double(used) / Double(window))
    }

    /// Whether the gateway has reported anything at all.
    public var isEmpty: Bool { self == SessionUsage() }

    private static func merge<Value>(_ change: SessionUsageChange.Change<Value>, into field: inout Value?) {
        switch change {
        case .unchanged: break
        case .cleared: field = nil
        case .set(let value): field = value
        }
    }
}

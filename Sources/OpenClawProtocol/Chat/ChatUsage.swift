/// Token use and cost of one assistant message (history keeps it on assistant messages only).
public struct ChatUsage: Sendable, Hashable {
    public var inputTokens: Int?
    public var outputTokens: Int?
    public var cacheReadTokens: Int?
    public var cacheWriteTokens: Int?
    public var totalTokens: Int?
    /// Cost in the provider's currency (USD for the providers the gateway prices).
    public var costTotal: Double?

    public init(
        inputTokens: Int? = nil,
        outputTokens: Int? = nil,
        cacheReadTokens: Int? = nil,
        cacheWriteTokens: Int? = nil,
        totalTokens: Int? = nil,
        costTotal: Double? = nil
    ) {
        self.inputTokens = inputTokens
        self.outputTokens = outputTokens
        self.cacheReadTokens = cacheReadTokens
        self.cacheWriteTokens = cacheWriteTokens
        self.totalTokens = totalTokens
        self.costTotal = costTotal
    }

    /// Reads both spellings the gateway whitelists (`input` / `inputTokens`, `total` /
    /// `totalTokens` ...). Nil when the value is not an object.
    public init?(json: JSONValue?) {
        guard let json, json.objectValue != nil else { return nil }
        self.init(
            inputTokens: json["input"]?.lenientIntValue ?? json["inputTokens"]?.lenientIntValue,
            outputTokens: json["output"]?.lenientIntValue ?? json["outputTokens"]?.lenientIntValue,
            cacheReadTokens: json["cacheRead"]?.lenientIntValue ?? json["cache_read_input_tokens"]?.lenientIntValue,
            cacheWriteTokens: json["cacheWrite"]?.lenientIntValue
                ?? json["cache_creation_input_tokens"]?.lenientIntValue,
            totalTokens: json["totalTokens"]?.lenientIntValue ?? json["total"]?.lenientIntValue,
            costTotal: json["cost"]?["total"]?.doubleValue
        )
    }
}

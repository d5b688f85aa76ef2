/// `sessions.list` params, all optional. The defaults mirror the official iOS client: global
/// sessions in, unknown ones out.
public struct SessionsListParams: GatewayMethodParams, Hashable {
    public static let method = GatewayMethodName.sessionsList

    public var limit: Int?
    public var includeGlobal: Bool?
    public var includeUnknown: Bool?
    /// Ask the gateway to derive a title from the first message (costs a transcript read per row).
    public var includeDerivedTitles: Bool?
    /// Ask the gateway for `lastMessagePreview` (costs a transcript read per row).
    public var includeLastMessage: Bool?
    /// Free-text filter on key, label and title.
    public var search: String?

    public init(
        limit: Int? = nil,
        includeGlobal: Bool? = true,
        includeUnknown: Bool? = false,
        includeDerivedTitles: Bool? = nil,
        includeLastMessage: Bool? = nil,
        search: String? = nil
    ) {
        self.limit = limit
        self.includeGlobal = includeGlobal
        self.includeUnknown = includeUnknown
        self.includeDerivedTitles = includeDerivedTitles
        self.includeLastMessage = includeLastMessage
        self.search = search
    }

    public var json: JSONValue {
        .object(dropping: [
            ("limit", .int(limit?.nilIfBelow(1))),
            ("includeGlobal", .bool(includeGlobal)),
            ("includeUnknown", .bool(includeUnknown)),
            ("includeDerivedTitles", .bool(includeDerivedTitles)),
            ("includeLastMessage", .bool(includeLastMessage)),
            ("search", .string(search.nilIfBlank)),
        ])
    }
}

/// The answer to `chat.abort`, and to a `chat.send` whose message was a stop command:
/// `{ok, aborted, runIds}`.
public struct ChatAbortResult: Sendable, Hashable {
    public var ok: Bool
    /// Whether any run was actually stopped (false for an unknown or finished run).
    public var aborted: Bool
    public var runIds: [String]

    public init(ok: Bool = true, aborted: Bool, runIds: [String] = []) {
        self.ok = ok
        self.aborted = aborted
        self.runIds = runIds
    }

    /// Nil when the payload is not an object or has neither `aborted` nor `runIds`.
    public init?(json: JSONValue?) {
        guard let json, json.objectValue != nil,
            json["aborted"] != nil || json["runIds"] != nil
        else { return nil }
        let runIds = json["runIds"]?.stringArrayValue ?? []
        self.init(
            ok: json["ok"]?.boolValue ?? true,
            aborted: json["aborted"]?.boolValue ?? !runIds.isEmpty,
            runIds: runIds
        )
    }
}

import OpenClawProtocol

/// One request (or a few alike) a test sends wrong on purpose, named by its method and by its params
/// (exactly, or by a test on them when they hold values known only at run time), so that only those
/// frames are exempt from validation, never every request of the method. The recorder still checks
/// them: a frame listed here that validates is reported, since the test then does not test what it says.
public struct InvalidOnPurpose: Sendable, CustomStringConvertible {
    public let method: String
    public let description: String
    private let matchesParams: @Sendable (JSONValue) -> Bool

    /// The request of `method` whose params are exactly `params`.
    public init(_ method: String, params: JSONValue) {
        self.method = method
        description = "\(method) \(params)"
        matchesParams = { $0 == params }
    }

    /// The requests of `method` whose params pass `test` (`what` says which, for the report).
    public init(_ method: String, _ what: String, where test: @escaping @Sendable (JSONValue) -> Bool) {
        self.method = method
        description = "\(method) (\(what))"
        matchesParams = test
    }

    /// Whether `request` (a decoded request frame) is one of these; absent params count as `{}`.
    func matches(_ request: JSONValue) -> Bool {
        request["method"]?.stringValue == method && matchesParams(request["params"] ?? [:])
    }
}

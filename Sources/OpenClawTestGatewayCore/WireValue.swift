import OpenClawProtocol

extension RawRepresentable where RawValue == String {
    /// The value as a JSON string: the test gateway writes `details.code`, `details.reason` and
    /// `recommendedNextStep` from the same typed constants (``ErrorDetailCode``, ``PairingReason``,
    /// ``AuthNextStep``) a client decides by, so the two cannot drift apart by a misspelt literal.
    var wire: JSONValue { .string(rawValue) }
}

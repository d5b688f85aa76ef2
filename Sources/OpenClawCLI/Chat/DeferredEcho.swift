/// An echo held for a message until its reply's turn (``InteractiveChat``): set when the line is taken,
/// taken by the send that follows it, or printed as it is when no send did.
struct DeferredEcho {
    private var text: String?

    mutating func set(_ echo: String) { text = echo }

    mutating func take() -> String? {
        defer { text = nil }
        return text
    }
}

/// A thinking level as the gateway stores it (`chat.send` `thinking`, `/think LEVEL`).
///
/// Upstream's canonical ids are `off`, `minimal`, `low`, `medium`, `high`, `xhigh`, `adaptive`, `max`
/// and `ultra`, with spellings it maps onto them (`x-high` → `xhigh`, `highest` → `high`); which of them a
/// model offers is the gateway's call, so every canonical id is accepted here and a model's refusal is
/// reported when it comes. A word that is none of them is a typo, refused before anything is sent: the
/// gateway would otherwise store or reject it after the message has already gone.
public enum ThinkingLevel: String, CaseIterable, Sendable, Hashable {
    case off, minimal, low, medium, high, xhigh, adaptive, max, ultra

    /// `text` as a level: the canonical id or one of upstream's aliases, in any case; nil for anything
    /// else.
    public init?(parsing text: String) {
        let word = String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
            .lowercased()
        if let level = ThinkingLevel(rawValue: word) {
            self = level
            return
        }
        switch word {
        case "x-high", "x_high", "extra-high", "extra high", "extra_high": self = .xhigh
        case "highest": self = .high
        default: return nil
        }
    }

    /// The ids in upstream's order, for usage messages.
    public static var listed: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

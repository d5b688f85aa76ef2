import OpenClawProtocol

/// A line typed to `openclaw-chat approvals watch`: `allow ID`, `always ID`, `deny ID` (the id may be a
/// unique prefix, or left out when one request is pending), `show ID`, `list`, `help`.
enum WatchInput: Equatable {
    case decide(ExecApprovalDecision, reference: String)
    case show(reference: String)
    case list
    case help
    case empty
    case unknown(String)

    init(line: String) {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let verb = words.first?.lowercased() else {
            self = .empty
            return
        }
        let reference = words.count > 1 ? words[1] : ""
        guard words.count <= 2 else {
            self = .unknown(line)
            return
        }
        switch verb {
        case "allow", "allow-once", "a", "y": self = .decide(.allowOnce, reference: reference)
        case "always", "allow-always": self = .decide(.allowAlways, reference: reference)
        case "deny", "d", "n": self = .decide(.deny, reference: reference)
        case "show": self = .show(reference: reference)
        case "list", "ls": self = .list
        case "help", "?": self = .help
        default: self = .unknown(verb)
        }
    }

    /// What the reader types for each decision.
    static func word(for decision: ExecApprovalDecision) -> String {
        switch decision {
        case .allowOnce: "allow"
        case .allowAlways: "always"
        case .deny: "deny"
        }
    }

    static let usage =
        "allow [ID] · always [ID] · deny [ID] · show ID · list — an ID may be a unique prefix, or left out when one request is pending"
}

/// How a person names one of several pending items (approvals, questions) by a prefix of its id.
enum PendingIDs {
    /// The shortest prefix of `id` (at least `minimum` characters) that no other of `ids` begins with.
    static func shortest(_ id: String, among ids: [String], minimum: Int) -> String {
        var length = min(minimum, id.count)
        while length < id.count {
            let prefix = String(id.prefix(length))
            if ids.count(where: { $0.hasPrefix(prefix) }) <= 1 { return prefix }
            length += 1
        }
        return id
    }

    /// What a typed reference names.
    enum Named: Equatable {
        /// The pending item at this index.
        case pending(Int)
        /// Nothing typed, and nothing pending.
        case nothingPending
        /// More than one pending item fits what was typed (the trimmed reference, the ids it fits).
        case ambiguous(String, candidates: [String])
        /// A closed item: named in full, or the only one the prefix fits when no pending one does.
        case closed(String)
        case notFound(String)
    }

    /// The item `reference` names among `pending` ids and recently `closed` ones: an id, a unique prefix
    /// of one, or nothing at all when exactly one is pending. A closed item named in full is that one,
    /// never a pending one whose id begins with it: a decision typed for it must not land on another.
    static func resolve(_ reference: String, pending: [String], closed: [String]) -> Named {
        let wanted = trimmed(reference)
        if wanted.isEmpty {
            switch pending.count {
            case 0: return .nothingPending
            case 1: return .pending(0)
            default: return .ambiguous(wanted, candidates: pending)
            }
        }
        if let exact = pending.firstIndex(of: wanted) { return .pending(exact) }
        if closed.contains(wanted) { return .closed(wanted) }
        let matches = pending.indices.filter { pending[$0].hasPrefix(wanted) }
        if matches.count == 1, let index = matches.first { return .pending(index) }
        if matches.count > 1 { return .ambiguous(wanted, candidates: matches.map { pending[$0] }) }
        let closedMatches = closed.filter { $0.hasPrefix(wanted) }
        if closedMatches.count == 1, let id = closedMatches.first { return .closed(id) }
        return .notFound(wanted)
    }

    /// A typed reference without the spaces and tabs around it.
    static func trimmed(_ reference: String) -> String {
        var view = Substring(reference)
        while view.first == " " || view.first == "\t" { view.removeFirst() }
        while view.last == " " || view.last == "\t" { view.removeLast() }
        return String(view)
    }
}

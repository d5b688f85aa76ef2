/// The failures of naming a pending item, which the approvals' and the questions' errors both have.
protocol PendingReferenceFailure: Error {
    static var nothingPending: Self { get }
    static func ambiguous(_ reference: String, candidates: [String]) -> Self
    static func notFound(_ reference: String) -> Self
}

extension ApprovalError: PendingReferenceFailure {}
extension QuestionError: PendingReferenceFailure {}

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

    /// The pending item `reference` names: its id, a unique prefix of it, or nothing at all when exactly
    /// one is pending. A closed item named in full is that one, never a pending one whose id begins with it
    /// (a decision typed for it must not land on another); `closedFailure` says how it ended (nil when it
    /// is no longer remembered).
    static func match<Item, Failure: PendingReferenceFailure>(
        _ reference: String, pending: [Item], id: (Item) -> String, closed: [String],
        closedFailure: (String) -> Failure?
    ) -> Result<Item, Failure> {
        let wanted = trimmed(reference)
        if wanted.isEmpty {
            switch pending.count {
            case 0: return .failure(.nothingPending)
            case 1: return .success(pending[0])
            default: return .failure(.ambiguous(wanted, candidates: pending.map(id)))
            }
        }
        if let exact = pending.first(where: { id($0) == wanted }) { return .success(exact) }
        if closed.contains(wanted) { return .failure(closedFailure(wanted) ?? .notFound(wanted)) }
        let matches = pending.filter { id($0).hasPrefix(wanted) }
        if matches.count == 1 { return .success(matches[0]) }
        if matches.count > 1 { return .failure(.ambiguous(wanted, candidates: matches.map(id))) }
        let closedMatches = closed.filter { $0.hasPrefix(wanted) }
        if closedMatches.count == 1, let closedID = closedMatches.first {
            return .failure(closedFailure(closedID) ?? .notFound(closedID))
        }
        return .failure(.notFound(wanted))
    }

    /// A typed reference without the spaces and tabs around it.
    static func trimmed(_ reference: String) -> String {
        var view = Substring(reference)
        while view.first == " " || view.first == "\t" { view.removeFirst() }
        while view.last == " " || view.last == "\t" { view.removeLast() }
        return String(view)
    }
}

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

    /// A typed reference without the spaces and tabs around it.
    static func trimmed(_ reference: String) -> String {
        var view = Substring(reference)
        while view.first == " " || view.first == "\t" { view.removeFirst() }
        while view.last == " " || view.last == "\t" { view.removeLast() }
        return String(view)
    }
}

/// The status row under the input line, kept as pieces so it fits any width: `lead` (the connection
/// mark) always, then the parts in their order, the least useful dropped first when the row is too
/// narrow (``dropOrder``), so a narrow window loses the gateway's address, not half a word.
struct StatusRow: Equatable, Sendable {
    /// Styled already (a coloured mark).
    var lead: String
    var parts: [String]
    /// Indices of ``parts``, the first to go first.
    var dropOrder: [Int]
    /// Whether the parts are drawn dim.
    var dim: Bool

    /// The row for `columns` cells (one left free, so the terminal never wraps it).
    func text(columns: Int) -> String {
        let limit = max(1, columns - 1)
        var kept = Array(parts.indices)
        var drops = dropOrder[...]
        func row() -> String {
            let body = kept.map { parts[$0] }.joined(separator: " · ")
            let styled = dim && !body.isEmpty ? "\u{1B}[2m" + body + "\u{1B}[0m" : body
            return body.isEmpty ? lead : lead + " " + styled
        }
        while DisplayWidth.of(StyledCells.plain(row())) > limit, let next = drops.popFirst() {
            kept.removeAll { $0 == next }
        }
        return StyledCells.clip(row(), to: limit)
    }
}

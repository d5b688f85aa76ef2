/// "Did you mean": the known name closest to a mistyped one.
///
/// `openclaw-chat sned hi` would otherwise reach the default command (`chat`) as an unexpected argument;
/// a first word that is no command but close to one is reported as a typo of it instead.
enum CommandSuggestion {
    /// The closest of `names` to `word`, when it is close enough to be a typo (a swapped, missing, extra
    /// or wrong letter or two, or a prefix of at least two letters); nil otherwise.
    static func closest(to word: String, in names: [String]) -> String? {
        let typed = word.lowercased()
        guard !typed.isEmpty else { return nil }
        let scored = names.map { (name: $0, distance: distance(typed, $0.lowercased())) }
        let allowed = typed.count <= 4 ? 1 : 2
        if let best = scored.min(by: { $0.distance < $1.distance }), best.distance <= allowed { return best.name }
        let prefixed = names.filter { typed.count >= 2 && $0.lowercased().hasPrefix(typed) }
        return prefixed.count == 1 ? prefixed[0] : nil
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps.
    static func distance(_ lhs: String, _ rhs: String) -> Int {
        let a = Array(lhs)
        let b = Array(rhs)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var best = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    best = min(best, table[i - 2][j - 2] + 1)
                }
                table[i][j] = best
            }
        }
        return table[a.count][b.count]
    }
}

/// The matching walk shared by path globs (over characters) and argument patterns (over arguments):
/// one row of booleans per step, `row[j]` meaning "the steps so far match the first `j` items".
///
/// Time steps × items, memory two rows, no recursion: a hostile megabyte-long path or argument, or a
/// pattern of many stars, cannot exhaust the stack or take exponential time.
enum GlobRowWalk {
    enum Step {
        /// Any run of items, each accepted by the closure (given its index): `*`, `**`.
        case many((Int) -> Bool)
        /// Exactly one item, accepted by the closure: a literal, `?`, one argument's glob.
        case one((Int) -> Bool)
    }

    static func matches(_ steps: [Step], length: Int) -> Bool {
        var row = [Bool](repeating: false, count: length + 1)
        row[0] = true
        var next = row
        for step in steps {
            switch step {
            case .many(let accepts):
                next[0] = row[0]
                for j in stride(from: 1, through: length, by: 1) {
                    next[j] = row[j] || (next[j - 1] && accepts(j - 1))
                }
            case .one(let accepts):
                next[0] = false
                for j in stride(from: 1, through: length, by: 1) {
                    next[j] = row[j - 1] && accepts(j - 1)
                }
            }
            swap(&row, &next)
            if !row.contains(true) { return false }
        }
        return row[length]
    }
}

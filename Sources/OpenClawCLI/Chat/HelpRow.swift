/// A `/help` row's usage column: wide enough for the longest of the chat's own commands, so that the
/// descriptions line up; a longer usage (a gateway's command) is kept whole, with one space after it.
enum HelpRow {
    static let width = (LocalCommand.allCases.compactMap { $0.help?.usage.count }.max() ?? 0) + 2

    static func usageColumn(_ usage: String) -> String {
        usage + String(repeating: " ", count: max(1, width - usage.count))
    }
}

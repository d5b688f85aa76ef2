import OpenClawProtocol

/// The candidates Tab could not choose between, as printed above the input line: commands one a line
/// with what they do, other words side by side in columns, at most ``limit`` of them.
enum CompletionList {
    static let limit = 60

    static func text(_ candidates: [(name: String, summary: String)], columns: Int) -> String {
        let shown = candidates.prefix(limit).map {
            (TerminalText.escapedLine($0.name), TerminalText.escapedLine($0.summary))
        }
        let more = candidates.count > limit ? "  … and \(candidates.count - limit) more\n" : ""
        if shown.contains(where: { !$0.1.isEmpty }) {
            let width = min(24, (shown.map { DisplayWidth.of($0.0) }.max() ?? 0) + 3)
            return shown.map { name, summary in
                let pad = String(repeating: " ", count: max(1, width - DisplayWidth.of(name) - 1))
                return StyledCells.clip("  /\(name)\(pad)\(summary)", to: max(columns - 1, 10))
            }.joined(separator: "\n") + "\n" + more
        }
        let cell = (shown.map { DisplayWidth.of($0.0) }.max() ?? 0) + 2
        let perRow = max(1, (max(columns, 10) - 2) / max(cell, 1))
        var rows: [String] = []
        var index = 0
        while index < shown.count {
            let slice = shown[index..<min(index + perRow, shown.count)]
            rows.append(
                "  "
                    + slice.map { $0.0 + String(repeating: " ", count: max(0, cell - DisplayWidth.of($0.0))) }
                    .joined().trimmingTrailingSpaces())
            index += perRow
        }
        return rows.joined(separator: "\n") + "\n" + more
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}

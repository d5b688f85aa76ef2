#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A goal from the issue, checked against a measured value (never asserted: the report says).
struct Goal {
    enum Direction {
        case atMost
        case atLeast
    }

    var direction: Direction
    var limit: Double
    var unit: String

    static func atMost(_ limit: Double, _ unit: String) -> Goal { Goal(direction: .atMost, limit: limit, unit: unit) }
    static func atLeast(_ limit: Double, _ unit: String) -> Goal { Goal(direction: .atLeast, limit: limit, unit: unit) }

    func isMet(by value: Double) -> Bool {
        switch direction {
        case .atMost: value <= limit
        case .atLeast: value >= limit
        }
    }

    var text: String {
        (direction == .atMost ? "≤ " : "≥ ") + Format.number(limit) + " " + unit
    }
}

/// One printed figure: a measured value with its unit, and the goal it answers, if any.
struct Figure {
    var scenario: String
    var name: String
    var value: Double
    var unit: String
    var goal: Goal?
    /// Context printed after the value (sample count, sizes, a second statistic).
    var note: String = ""

    var valueText: String { Format.number(value) + " " + unit }

    var verdict: String {
        guard let goal else { return "" }
        return goal.isMet(by: value) ? "met" : "MISSED"
    }
}

/// Collects figures, prints each as soon as it is measured, and prints the table at the end.
@MainActor
final class Report {
    private(set) var figures: [Figure] = []

    func add(_ figure: Figure) {
        figures.append(figure)
        var line = "  [\(figure.scenario)] \(figure.name): \(figure.valueText)"
        if let goal = figure.goal { line += "  (goal \(goal.text): \(figure.verdict))" }
        if !figure.note.isEmpty { line += "  — \(figure.note)" }
        Output.line(line)
    }

    func add(
        _ scenario: String, _ name: String, _ value: Double, _ unit: String, goal: Goal? = nil, note: String = ""
    ) {
        add(Figure(scenario: scenario, name: name, value: value, unit: unit, goal: goal, note: note))
    }

    /// The median and p99 of `samples` in milliseconds, as two figures; the goal applies to the median.
    func addLatency(_ scenario: String, _ name: String, _ samples: Samples, goal: Goal? = nil, note: String = "") {
        let count = "\(samples.count) samples" + (note.isEmpty ? "" : "; " + note)
        add(scenario, name + ", median", samples.median.milliseconds, "ms", goal: goal, note: count)
        add(scenario, name + ", p99", samples.p99.milliseconds, "ms")
    }

    func printTable() {
        let headers = ["#", "figure", "value", "goal", ""]
        let rows = figures.map { [$0.scenario, $0.name, $0.valueText, $0.goal?.text ?? "", $0.verdict] }
        var widths = headers.map(\.count)
        for row in rows {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        func render(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column == 2 ? padding + cell : cell + padding
            }.joined(separator: " | ")
        }
        Output.line("")
        Output.line(render(headers))
        Output.line(widths.map { String(repeating: "-", count: $0) }.joined(separator: "-|-"))
        for row in rows { Output.line(render(row)) }
        let goals = figures.filter { $0.goal != nil }
        let missed = goals.filter { $0.verdict != "met" }
        Output.line("")
        Output.line("\(goals.count - missed.count) of \(goals.count) goals met" + (missed.isEmpty ? "." : ":"))
        for figure in missed { Output.line("  missed: [\(figure.scenario)] \(figure.name)") }
    }
}

enum Format {
    /// Three significant digits for small values, thousands separators for large ones.
    static func number(_ value: Double) -> String {
        let magnitude = abs(value)
        if magnitude >= 1000 { return grouped(Int(value.rounded())) }
        let decimals =
            if magnitude >= 100 { 0 } else if magnitude >= 10 { 1 } else if magnitude >= 1 { 2 } else { 3 }
        return fixed(value, decimals: decimals)
    }

    static func fixed(_ value: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((abs(value) * scale).rounded())
        let whole = scaled / Int(scale)
        let fraction = scaled % Int(scale)
        var text = String(whole)
        if decimals > 0 {
            let digits = String(fraction)
            text += "." + String(repeating: "0", count: decimals - digits.count) + digits
        }
        return value < 0 && scaled != 0 ? "-" + text : text
    }

    static func grouped(_ value: Int) -> String {
        let digits = Array(String(abs(value)))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return value < 0 ? "-" + text : text
    }

    static func megabytes(_ bytes: Int) -> Double { Double(bytes) / 1_048_576 }
}

/// Unbuffered lines on stdout, so progress shows while a long scenario runs.
enum Output {
    static func line(_ text: String) {
        let bytes = Array((text + "\n").utf8)
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(1, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }
}

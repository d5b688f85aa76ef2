/// Token counts as people read them: `950`, `41k`, `1.2M`.
public enum TokenCount {
    public static func short(_ count: Int) -> String {
        switch count {
        case ..<1_000: return "\(count)"
        case ..<10_000: return oneDecimal(Double(count) / 1_000) + "k"
        case ..<999_500: return "\(Int((Double(count) / 1_000).rounded()))k"
        default: return oneDecimal(Double(count) / 1_000_000) + "M"
        }
    }

    /// One decimal, dropped when it is zero (`1.0` reads `1`).
    private static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
    }

    /// A cost in US dollars: cents for amounts from a cent up, four places below.
    public static func dollars(_ amount: Double) -> String {
        // From the gateway: anything a cent count cannot hold is no cost worth showing.
        guard amount.isFinite, amount >= 0, amount < 1e12 else { return "?" }
        if amount >= 0.01 || amount == 0 {
            let cents = Int((amount * 100).rounded())
            let rest = cents % 100
            return "$\(cents / 100).\(rest < 10 ? "0" : "")\(rest)"
        }
        let units = Int((amount * 10_000).rounded())
        return "$0.\(String(repeating: "0", count: max(0, 4 - String(units).count)))\(units)"
    }
}

/// Sizes as people read them: decimal units with one decimal (`1.2 MB`, `840 kB`, `12 bytes`), the
/// way file managers on both platforms show them, so a limit and a file's size compare at a glance.
public enum ByteCountText {
    public static func text(_ bytes: Int) -> String {
        if bytes < 1000 { return bytes == 1 ? "1 byte" : "\(bytes) bytes" }
        let units: [(Int, String)] = [(1_000_000_000, "GB"), (1_000_000, "MB"), (1000, "kB")]
        for (scale, unit) in units where bytes >= scale {
            let tenths = (bytes * 10 + scale / 2) / scale
            return tenths % 10 == 0 ? "\(tenths / 10) \(unit)" : "\(tenths / 10).\(tenths % 10) \(unit)"
        }
        return "\(bytes) bytes"
    }

    /// A limit: rounded, and exact in bytes when rounding hid something (`5 MB`, `19.5 MB (19464192 bytes)`).
    public static func precise(_ bytes: Int) -> String {
        let rounded = text(bytes)
        return bytes < 1000 || rounded == "\(bytes / 1_000_000) MB" && bytes % 1_000_000 == 0
            ? rounded : "\(rounded) (\(bytes) bytes)"
    }
}

/// Which generated image `/save` means: `N` is the message's number (the one `/expand N` takes), `N.K`
/// its K-th generated image (`N` alone: the first).
struct SaveReference: Equatable {
    let message: Int
    let ordinal: Int

    /// Nil unless `text` is `N` or `N.K` with positive numbers.
    init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let message = Int(parts[0]), message > 0 else { return nil }
        let ordinal = parts.count == 2 ? Int(parts[1]) : 1
        guard let ordinal, ordinal > 0 else { return nil }
        self.message = message
        self.ordinal = ordinal
    }

    /// The line a row shows for its generated image: how to save it, or how to get it a number.
    static func line(message: Int?, ordinal: Int) -> String {
        guard let message else { return "🖼 image (artifact) — /history numbers it for /save" }
        let number = ordinal == 1 ? "\(message)" : "\(message).\(ordinal)"
        return "🖼 image \(number) (artifact) — /save \(number) PATH"
    }
}

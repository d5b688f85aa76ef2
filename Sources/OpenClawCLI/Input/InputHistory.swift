import OpenClawGateway
import OpenClawProtocol

/// What was typed in the interactive chat, kept per state directory for ↑/↓ in the next session: a JSON
/// array of strings in a 0600 file (a message can hold anything), the newest last, at most 500.
struct InputHistory: Sendable {
    /// Nil keeps the history for this session only (the demo).
    let path: String?

    func load() -> [String] {
        guard let path, let bytes = try? SecureFile.read(path), let json = try? JSONParser().parse(bytes),
            case .array(let items) = json
        else { return [] }
        return items.compactMap(\.stringValue)
    }

    func save(_ entries: [String]) {
        guard let path else { return }
        try? SecureFile.writeAtomically(
            JSONSerializer.bytes(.array(entries.map { (entry: String) -> JSONValue in .string(entry) })), to: path)
    }
}

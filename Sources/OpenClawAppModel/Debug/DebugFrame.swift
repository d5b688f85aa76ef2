import OpenClawGateway
import OpenClawProtocol

/// One frame of the debug view: already redacted by the connection (``FrameRedactor``).
public struct DebugFrame: Sendable, Equatable, Identifiable {
    /// The frame's number on this app's connections (1, 2, 3 …): a gap means frames were dropped
    /// while the screen could not keep up.
    public let id: Int
    public let isInbound: Bool
    /// The redacted JSON text.
    public let text: String
    /// When it was recorded, epoch ms.
    public let recordedAtMs: Int

    /// `req chat.send`, `res ok`, `event chat` … for the list; parsed on demand (only rows on screen).
    public var summary: String {
        guard let json = try? JSONParser().parse(text), let type = json["type"]?.stringValue else {
            return text.count > 40 ? String(text.prefix(40)) + "…" : text
        }
        switch type {
        case "req": return "req \(json["method"]?.stringValue ?? "?")"
        case "res": return json["ok"]?.boolValue == true ? "res ok" : "res error"
        case "event": return "event \(json["event"]?.stringValue ?? "?")"
        default: return type
        }
    }
}

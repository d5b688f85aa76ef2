import OpenClawChat
import OpenClawProtocol
import Testing

/// Recorded gateway traffic, written as the frames a socket would deliver and decoded through
/// `FrameCodec` exactly as the engine will. A line starting with `{"type":"event"` (or `res`, `req`)
/// begins a frame; other lines continue it, so long frames can wrap. Event frames become event actions; response frames
/// become a history page (a payload with `messages`) or a `chat.send` ack.
enum Recording {
    struct UnrecognisedFrame: Error, CustomStringConvertible {
        var text: String
        var description: String { "not a chat or agent event, history page or ack: \(text)" }
    }

    private static let frameStarts = [#"{"type":"event""#, #"{"type":"res""#, #"{"type":"req""#]

    static func actions(_ text: String) throws -> [TranscriptAction] {
        var frames: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let trimmed = line.drop { $0 == " " }
            if frameStarts.contains(where: { trimmed.hasPrefix($0) }) || frames.isEmpty {
                frames.append(String(trimmed))
            } else {
                frames[frames.count - 1] += String(trimmed)
            }
        }
        return try frames.map(action)
    }

    static func action(_ frameText: String) throws -> TranscriptAction {
        switch try FrameCodec().decode(frameText) {
        case .event(let frame):
            if let event = ChatEvent(frame: frame) { return .chatEvent(event) }
            if let event = AgentEvent(frame: frame) { return .agentEvent(event) }
        case .response(let response):
            if response.payload?["messages"] != nil, let page = ChatHistoryPage(json: response.payload) {
                return .historyLoaded(page)
            }
            if let ack = ChatSendAck(json: response.payload) { return .sendAcknowledged(ack) }
        case .request, .unknown:
            break
        }
        throw UnrecognisedFrame(text: frameText)
    }
}

extension Transcript {
    /// Applies recorded frames in order and returns what each did.
    @discardableResult
    mutating func play(_ recording: String) throws -> [TranscriptApplyResult] {
        try Recording.actions(recording).map { apply($0) }
    }

    mutating func send(_ text: String, id: String, at time: Int = 1_000) {
        apply(.send(LocalSend(id: id, text: text, timestampMs: time)))
    }

    var texts: [String] { entries.map(\.text) }
    var ids: [String] { entries.map(\.id) }
}

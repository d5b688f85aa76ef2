import OpenClawChat
import OpenClawProtocol
import Testing

@testable import OpenClawCLI

/// What `send` reports for a run whose reply its events brought, when the history page asked for at the
/// run's end does not carry that run (issue 38, point 2): the reply, not "ended without a reply".
@Suite("Run progress: a reply a page without its run dropped")
struct RunProgressKeptReplyTests {
    static func action(_ frame: String) throws -> TranscriptAction {
        switch try FrameCodec().decode(frame) {
        case .event(let event):
            return .chatEvent(try #require(ChatEvent(frame: event)))
        case .response(let response):
            return .historyLoaded(try #require(ChatHistoryPage(json: response.payload)))
        case .request, .unknown:
            throw FrameError()
        }
    }

    struct FrameError: Error {}

    static let delta =
        #"{"type":"event","event":"chat","seq":1,"payload":{"runId":"r1","sessionKey":"main","seq":1,"#
        + #""state":"delta","deltaText":"the whole reply"}}"#
    static let final =
        #"{"type":"event","event":"chat","seq":2,"payload":{"runId":"r1","sessionKey":"main","seq":2,"#
        + #""state":"final","message":{"role":"assistant","content":[{"type":"text","text":"the whole reply"}]}}}"#
    static let emptyPage = #"{"type":"res","id":"h1","ok":true,"payload":{"sessionKey":"main","messages":[]}}"#

    /// The events came before the acknowledgement (one burst), then the page: the reply is still the run's.
    @Test func eventsBeforeTheAckThenAPageWithoutTheRunKeepTheReply() throws {
        var transcript = Transcript(sessionKey: "main")
        transcript.apply(.send(LocalSend(id: "r1", text: "hi", timestampMs: 1_000)))
        transcript.apply(try Self.action(Self.delta))
        transcript.apply(try Self.action(Self.final))
        transcript.apply(.historyRequested)
        transcript.apply(try Self.action(Self.emptyPage))
        transcript.apply(.sendAcknowledged(ChatSendAck(runId: "r1", status: .started)))

        let progress = RunProgress(runId: "r1", transcript: transcript, outbox: [])
        guard case .ended(.completed, let reply) = progress else {
            Issue.record("not ended: \(progress)")
            return
        }
        #expect(reply?.text == "the whole reply")
    }
}

import OpenClawProtocol
import Testing

@testable import OpenClawChat

/// The reply of this client's run as its terminal event left it is kept until history shows it: a page
/// without the run drops its rows, and whoever follows the run must still get the reply (issue 38,
/// point 2); a page that shows it lets the copy go, so what is kept stays bounded.
@Suite("Transcript: the kept reply of an ended run")
struct EndedReplyTests {
    static let run = """
        {"type":"event","event":"chat","seq":1,"payload":{"runId":"r1","sessionKey":"main","seq":1,
          "state":"delta","deltaText":"the whole reply"}}
        {"type":"event","event":"chat","seq":2,"payload":{"runId":"r1","sessionKey":"main","seq":2,
          "state":"final","message":{"role":"assistant","content":[{"type":"text","text":"the whole reply"}]}}}
        """
    static let emptyPage = #"{"type":"res","id":"h1","ok":true,"payload":{"sessionKey":"main","messages":[]}}"#
    static let pageWithReply = """
        {"type":"res","id":"h2","ok":true,"payload":{"sessionKey":"main","messages":[
          {"role":"user","content":[{"type":"text","text":"hi"}],"timestamp":1000},
          {"role":"assistant","content":[{"type":"text","text":"stored reply"}],"timestamp":1001}]}}
        """

    @Test func aPageWithoutTheRunDropsTheRowsButNotTheKeptReply() throws {
        var transcript = Transcript(sessionKey: "main")
        transcript.send("hi", id: "r1")
        try transcript.play(Self.run)
        transcript.apply(.historyRequested)
        try transcript.play(Self.emptyPage)
        #expect(transcript.entries.isEmpty)
        #expect(transcript.endedReply(ofRun: "r1")?.text == "the whole reply")
    }

    @Test func aPageThatShowsTheReplyLetsTheKeptCopyGo() throws {
        var transcript = Transcript(sessionKey: "main")
        transcript.send("hi", id: "r1")
        try transcript.play(Self.run)
        transcript.apply(.historyRequested)
        try transcript.play(Self.pageWithReply)
        #expect(transcript.entries.last { $0.runId == "r1" && $0.role == .assistant }?.text == "stored reply")
        #expect(transcript.endedReply(ofRun: "r1") == nil)
    }

    /// Runs started elsewhere keep nothing: their replies are not anyone's to wait for here.
    @Test func aRunStartedElsewhereKeepsNoReply() throws {
        var transcript = Transcript(sessionKey: "main")
        try transcript.play(Self.run)
        #expect(transcript.endedReply(ofRun: "r1") == nil)
    }
}

import OpenClawChat
import OpenClawProtocol
import Testing

/// What counts as running: a send stays running once history confirms its message, until the run's
/// terminal event — unless events were lost and history does not name the run in flight.
@Suite("Active runs")
struct ActiveRunTests {
    private static let pageWithTheSend = #"""
        {"type":"res","id":"h","ok":true,"payload":{"sessionKey":"main","messages":[
         {"role":"user","content":"go","timestamp":1,"__openclaw":{"id":"u1"}}]}}
        """#

    @Test func aConfirmedSendRunsUntilItsTerminalEvent() throws {
        var transcript = Transcript(sessionKey: "main")
        transcript.send("go", id: "r1")
        transcript.apply(.sendAcknowledged(ChatSendAck(runId: "r1", status: .started)))
        try transcript.play(Self.pageWithTheSend)
        #expect(transcript.entries.map(\.source) == [.history])
        Self.expectActive(transcript, ["r1"])

        try transcript.play(
            #"""
            {"type":"event","event":"chat","seq":1,"payload":{"runId":"r1","sessionKey":"main","seq":2,
             "state":"final","message":{"role":"assistant","content":[{"type":"text","text":"Gone."}]}}}
            """#
        )
        Self.expectActive(transcript, [])
    }

    @Test func aSendFromBeforeLostEventsIsOverUnlessHistoryNamesItInFlight() throws {
        var lost = Transcript(sessionKey: "main")
        lost.send("go", id: "r1")
        lost.apply(.sendAcknowledged(ChatSendAck(runId: "r1", status: .started)))
        lost.apply(.resyncNeeded(.reconnected))
        try lost.play(Self.pageWithTheSend)
        Self.expectActive(lost, [])

        var inFlight = Transcript(sessionKey: "main")
        inFlight.send("go", id: "r1")
        inFlight.apply(.resyncNeeded(.reconnected))
        try inFlight.play(
            #"""
            {"type":"res","id":"h","ok":true,"payload":{"sessionKey":"main","messages":[
             {"role":"user","content":"go","timestamp":1,"__openclaw":{"id":"u1"}}],
             "inFlightRun":{"runId":"r1","text":"Half"}}}
            """#
        )
        Self.expectActive(inFlight, ["r1"])
    }

    /// A send made after the resync point lost nothing: its events come on the current socket.
    @Test func aSendAfterTheResyncStaysRunning() throws {
        var transcript = Transcript(sessionKey: "main")
        transcript.apply(.resyncNeeded(.reconnected))
        transcript.send("go", id: "r1")
        try transcript.play(Self.pageWithTheSend)
        Self.expectActive(transcript, ["r1"])
    }

    @Test func aResendAnsweredOkIsOverOnceConfirmed() throws {
        var transcript = Transcript(sessionKey: "main")
        transcript.send("go", id: "r1")
        transcript.apply(.sendAcknowledged(ChatSendAck(runId: "r1", status: .ok)))
        try transcript.play(Self.pageWithTheSend)
        Self.expectActive(transcript, [])
    }

    /// The gateway came back without the message (restarted before it was stored): the acked send is not
    /// in the page and no run is in flight, so nothing holds the session as running (the interactive
    /// chat stayed "running" for ever: every Ctrl-C only tried to stop it).
    @Test func anAckedSendMissingFromTheFirstPageAfterAResyncIsOver() throws {
        var transcript = Transcript(sessionKey: "main")
        transcript.send("go", id: "r1")
        transcript.apply(.sendAcknowledged(ChatSendAck(runId: "r1", status: .started)))
        transcript.apply(.resyncNeeded(.reconnected))
        try transcript.play(
            #"""
            {"type":"res","id":"h","ok":true,"payload":{"sessionKey":"main","messages":[]}}
            """#
        )
        Self.expectActive(transcript, [])
        // A run that is in fact still going comes back with its next event.
        try transcript.play(
            #"""
            {"type":"event","event":"chat","seq":1,"payload":{"runId":"r1","sessionKey":"main","seq":3,
             "state":"delta","message":{"role":"assistant","content":[{"type":"text","text":"Still here"}]}}}
            """#
        )
        Self.expectActive(transcript, ["r1"])
    }

    /// The active runs are `expected`, and asking about one run (as a terminal client does per delta)
    /// agrees with the list for every run the tests use.
    private static func expectActive(
        _ transcript: Transcript, _ expected: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(transcript.activeRunIds == expected, sourceLocation: sourceLocation)
        for runId in ["r1", "r2", "r3", "r9", "k1"] {
            #expect(transcript.isActive(runId: runId) == expected.contains(runId), sourceLocation: sourceLocation)
        }
    }
}

/// A run's events search the transcript for the message sent from here only until they know there is
/// none; a send applied after that (its events came first) is still marked accepted by the next event.
@Suite("Runs started elsewhere")
struct RunsStartedElsewhereTests {
    private static func delta(_ text: String, run: String, seq: Int) -> ChatEvent {
        ChatEvent(runId: run, sessionKey: "main", seq: seq, state: .delta, deltaText: text)
    }

    @Test func aSendAppliedAfterItsRunsFirstEventIsStillMarkedAccepted() {
        var transcript = Transcript(sessionKey: "main")
        transcript.apply(.chatEvent(Self.delta("Hel", run: "r1", seq: 1)))
        transcript.send("hi", id: "r1")
        #expect(transcript.entries.first { $0.source == .local }?.status == .sending)
        transcript.apply(.chatEvent(Self.delta("lo", run: "r1", seq: 2)))
        #expect(transcript.entries.first { $0.source == .local }?.status == .sent)
        #expect(transcript.entries.first { $0.source == .live }?.text == "Hello")
    }

    @Test func aRunFromAnotherClientStreamsWithoutTouchingLocalSends() {
        var transcript = Transcript(sessionKey: "main")
        transcript.send("mine", id: "k1")
        for seq in 1...3 { transcript.apply(.chatEvent(Self.delta("x", run: "other", seq: seq))) }
        #expect(transcript.entries.first { $0.id == "k1" }?.status == .sending)
        #expect(transcript.entries.first { $0.runId == "other" }?.text == "xxx")
    }
}

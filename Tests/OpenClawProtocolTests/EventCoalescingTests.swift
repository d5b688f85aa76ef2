import OpenClawProtocol
import Testing

/// Which events may stand in for earlier ones while a reader is behind: only v3 chat deltas (they carry
/// the whole reply so far), keyed by session and run; their run's end stops the merging.
@Suite("Event coalescing")
struct EventCoalescingTests {
    static func chat(_ state: String, run: String = "r1") -> EventFrame {
        EventFrame(
            event: "chat",
            payload: ["runId": .string(run), "sessionKey": "agent:main:main", "seq": 1, "state": .string(state)])
    }

    @Test func onlyV3ChatDeltasReplaceEarlierOnes() {
        #expect(Self.chat("delta").coalescing(on: .v3) == .replacesEarlier(key: "agent:main:main|r1"))
        #expect(Self.chat("final").coalescing(on: .v3) == .endsReplacement(key: "agent:main:main|r1"))
        #expect(Self.chat("delta").coalescing(on: .v4) == .distinct, "v4 deltas are appends")
        #expect(Self.chat("delta", run: "r2").coalescing(on: .v3) != Self.chat("delta").coalescing(on: .v3))
        let agent = EventFrame(event: "agent", payload: ["runId": "r1", "stream": "assistant"])
        #expect(agent.coalescing(on: .v3) == .distinct)
        #expect(EventFrame(event: "chat", payload: ["state": "delta"]).coalescing(on: .v3) == .distinct, "no run")
    }
}

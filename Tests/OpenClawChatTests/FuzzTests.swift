import OpenClawProtocol
import OpenClawTestSupport
import Testing

@testable import OpenClawChat

/// Random and mutated frames through the decoder and the transcript reducer (issue 6 §4): no crash,
/// no hang, rows stay unique and bounded by what was applied. Seeded, so a failure names its replay.
@Suite("Fuzzing: frame decoder and transcript reducer")
struct FuzzTests {
    static let inputsPerSeed = 2_500

    @Test(arguments: 1...8 as ClosedRange<UInt64>)
    func mutatedFramesNeverBreakTheDecoderOrTheTranscript(seed: UInt64) {
        var mutator = FrameMutator(seed: seed)
        let codec = FrameCodec()
        var transcript = Transcript(sessionKey: "main")
        transcript.apply(.send(LocalSend(id: "r1", text: "hi", timestampMs: 0)))
        var decoded = 0
        var rejected = 0
        var eventsApplied = 0
        var largestPage = 0

        for index in 0..<Self.inputsPerSeed {
            let bytes = mutator.next()
            let frame: GatewayFrame
            do {
                frame = try codec.decode(bytes)
            } catch {
                rejected += 1
                continue
            }
            decoded += 1
            switch frame {
            case .event(let event):
                if let chat = ChatEvent(frame: event) {
                    transcript.apply(.chatEvent(chat))
                    eventsApplied += 1
                }
                if let agent = AgentEvent(frame: event) {
                    transcript.apply(.agentEvent(agent))
                    eventsApplied += 1
                }
            case .response(let response):
                if let page = ChatHistoryPage(json: response.payload) {
                    transcript.apply(.historyRequested)
                    transcript.apply(.historyLoaded(page))
                    largestPage = max(largestPage, page.messages.count)
                }
            case .request, .unknown:
                break
            }

            let ids = transcript.entries.map(\.id)
            guard Set(ids).count == ids.count else {
                Issue.record("seed \(seed), input \(index): duplicate row ids \(ids)")
                return
            }
            guard transcript.entries.count <= 1 + eventsApplied + largestPage else {
                Issue.record(
                    "seed \(seed), input \(index): \(transcript.entries.count) rows from \(eventsApplied) events")
                return
            }
            // Every read path a UI takes must hold up too.
            _ = transcript.activeRunIds
            _ = transcript.storableMessages
            for entry in transcript.entries {
                _ = entry.text
                for step in entry.activity { _ = step.summary() }
            }
        }
        #expect(decoded > Self.inputsPerSeed / 10, "the mutations should keep some frames decodable")
        #expect(rejected > Self.inputsPerSeed / 10, "the mutations should break some frames")
        print(
            "fuzz seed \(seed): \(Self.inputsPerSeed) inputs, \(decoded) decoded, \(rejected) rejected, \(eventsApplied) events applied"
        )
    }

    /// Nesting far beyond the parser's depth bound is refused with a typed error, not a stack overflow.
    @Test func deepNestingIsRefused() {
        for open in ["[", "{\"a\":"] {
            let text = String(repeating: open, count: 100_000)
            #expect(throws: FrameDecodingError.self) { try FrameCodec().decode(text) }
        }
    }
}

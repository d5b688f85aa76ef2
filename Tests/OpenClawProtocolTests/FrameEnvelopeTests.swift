import Testing

@testable import OpenClawProtocol

/// A frame's envelope is read from its members in one pass, without a dictionary, and its usual member
/// names are not made anew: both must read every document exactly as the parsed tree does.
@Suite("Frame envelope")
struct FrameEnvelopeTests {
    let codec = FrameCodec()

    /// Documents whose envelope a one-pass reader could get wrong: nulls, duplicates, escaped names,
    /// names near the usual ones, other types, whitespace.
    static let documents: [String] = [
        #"{"type":"event","event":"chat","payload":{"runId":"r","state":"delta"},"seq":3}"#,
        #"{"type":"event","event":"chat","payload":null,"seq":null,"stateVersion":null}"#,
        #"{"type":"event","event":"a","event":"b","seq":1,"seq":"2"}"#,
        #"{"type":"event","event":"a","payload":{"x":1},"payload":null}"#,
        #"{"ty\u0070e":"event","\u0065vent":"escaped","payload":{"run\u0049d":"r1"}}"#,
        #"{"types":"event","typ":"event","type":"res","id":"7","ok":true,"payloads":1,"payload":{"a":[1,2]}}"#,
        #"{"type":"res","id":"8","ok":false,"error":{"code":"INVALID_REQUEST","message":"no"}}"#,
        #"{"type":"req","id":"9","method":"health","params":{"deep":true}}"#,
        #"{"type":"brand.new","id":"1","extra":{"nested":[{"type":"x"}]},"extra":2}"#,
        #"  { "type" : "event" , "event" : "tick" , "payload" : { "ts" : 1 } }  "#,
        #"{"type":"event","event":"chat","stateVersion":{"presence":1,"health":2},"sessionKey":"k"}"#,
    ]

    @Test(arguments: documents)
    func theEnvelopeReadsAsTheParsedTreeDoes(document: String) throws {
        let tree = try JSONParser().parse(document)
        #expect(try codec.decode(document) == FrameCodec.frame(from: tree))
        #expect(try codec.decode(Array(document.utf8)) == FrameCodec.frame(from: tree))
    }

    @Test(arguments: documents)
    func membersInOrderMakeTheSameObject(document: String) throws {
        guard case .object(let object) = try JSONParser().parse(document),
            let members = try JSONParser().parseEnvelope(document)
        else {
            Issue.record("not an object: \(document)")
            return
        }
        let values = members.map { ($0.key, EventPayload($0.value)?.value ?? .null) }
        #expect(JSONObject(values) == object)
    }

    @Test func ofDuplicateMembersTheLastCountsAndANullOneIsAbsent() throws {
        guard case .event(let event) = try codec.decode(#"{"type":"event","event":"a","event":"b","seq":1,"seq":null}"#)
        else {
            Issue.record("not an event")
            return
        }
        #expect(event.event == "b")
        #expect(event.seq == nil)
    }

    /// An event's object payload is kept as its members off the wire: read whole, member by member (as
    /// `ChatEvent` reads it), hashed or compared, it is the payload the parsed tree has.
    @Test(arguments: [
        #"{"type":"event","event":"chat","payload":{"runId":"r","sessionKey":"main","state":"delta","seq":2,"deltaText":"Hi"}}"#,
        #"{"type":"event","event":"chat","payload":{"runId":"a","runId":"b","sessionKey":"main","state":"final","message":null,"usage":{"input":1}}}"#,
        #"{"type":"event","event":"chat","payload":{"runId":"r","sessionKey":"main","state":"delta","deltaText":"x","deltaText":null}}"#,
        #"{"type":"event","event":"chat","payload":{"x":1},"payload":{"runId":"r","sessionKey":"k","state":"aborted","stopReason":"rpc"}}"#,
        #"{"type":"event","event":"chat","payload":{"runId":"r","sessionKey":"k","state":"delta"},"payload":[1]}"#,
        #"{"type":"event","event":"agent","payload":{},"seq":4}"#,
        #"{"type":"event","event":"chat","payload":{"runId":"r","state":"delta","sessionKey":"main","session\u212Aey":"other"}}"#,
        #"{"type":"event","event":"chat","payload":{"runId":"r","state":"error","errorKind":"a","error\u212Aind":"refusal","sessionKey":"k"}}"#,
        #"{"type":"event","event":"chat","payload":{"runId":"r","sessionKey":"k","state":"delta"},"payload":null}"#,
        #"{"type":"event","event":"chat","payload":null,"payload":{"runId":"r","sessionKey":"k","state":"delta"}}"#,
    ])
    func anEventPayloadKeptAsMembersReadsAsTheTree(document: String) throws {
        guard case .event(let kept) = try codec.decode(document),
            case .event(let fromTree) = try FrameCodec.frame(from: JSONParser().parse(document))
        else {
            Issue.record("not an event: \(document)")
            return
        }
        #expect(kept == fromTree)
        #expect(kept.hashValue == fromTree.hashValue)
        #expect(ChatEvent(frame: kept) == ChatEvent(frame: fromTree))
        #expect(ChatEvent(frame: kept) == ChatEvent(json: kept.payload))
        #expect(kept.payload == fromTree.payload)
    }

    /// Many tasks asking at once for a kept payload (whose dictionary is built on first use) all read it
    /// whole and the same.
    @Test func aKeptPayloadReadFromManyTasksAtOnceReadsTheSame() async throws {
        let document = #"{"type":"event","event":"health","payload":{"ok":true,"n":[1,2,3],"s":"x"}}"#
        guard case .event(let frame) = try codec.decode(document) else {
            Issue.record("not an event")
            return
        }
        let payloads = await withTaskGroup(of: JSONValue?.self) { group in
            for _ in 0..<32 { group.addTask { frame.payload } }
            return await group.reduce(into: [JSONValue?]()) { $0.append($1) }
        }
        #expect(payloads.count == 32)
        #expect(Set(payloads.map { $0.map(JSONSerializer.string) }) == [#"{"n":[1,2,3],"ok":true,"s":"x"}"#])
    }

    /// An unknown frame keeps its whole object, payload included, nulls and the last of duplicates as a
    /// dictionary would; and a payload kept as members is held to the same depth limit, failing at the
    /// same byte, as one parsed whole.
    @Test func anUnknownFramesPayloadAndTheDepthLimitAreAsTheTreesAre() throws {
        let unknown = #"{"type":"brand.new","payload":{"a":null,"b":1,"b":2},"x":null}"#
        #expect(try codec.decode(unknown) == FrameCodec.frame(from: JSONParser().parse(unknown)))
        #expect(
            try codec.decode(unknown)
                == .unknown(
                    type: "brand.new", raw: ["type": "brand.new", "payload": ["a": .null, "b": 2], "x": .null]))

        let shallow = JSONParser(maxDepth: 2)
        let deep = #"{"type":"event","event":"x","payload":{"a":{"b":1}}}"#
        let tooDeep = JSONParseError(reason: .nestingTooDeep(limit: 2), offset: 43)
        #expect(throws: tooDeep) { try shallow.parse(deep) }
        #expect(throws: FrameDecodingError.malformedJSON(tooDeep)) { try FrameCodec(parser: shallow).decode(deep) }
        #expect(throws: Never.self) {
            try FrameCodec(parser: shallow).decode(#"{"type":"event","event":"x","payload":{"a":1}}"#)
        }
    }

    /// Pinned against literal frames, not against another decoding: an explicit `null` member is absent,
    /// as if the gateway had left it out (a `.null` payload would reach every reader of `payload`).
    @Test func anExplicitNullMemberIsAbsent() throws {
        #expect(
            try codec.decode(#"{"type":"event","event":"chat","payload":null,"seq":null,"stateVersion":null}"#)
                == .event(EventFrame(event: "chat", payload: nil, seq: nil, stateVersion: nil)))
        #expect(
            try codec.decode(#"{"type":"event","event":"tick","payload":{"ts":1},"payload":null}"#)
                == .event(EventFrame(event: "tick", payload: nil)))
        #expect(
            try codec.decode(#"{"type":"res","id":"1","ok":true,"payload":null,"error":null}"#)
                == .response(ResponseFrame(id: "1", ok: true, payload: nil, error: nil)))
        #expect(
            try codec.decode(#"{"type":"req","id":"2","method":"health","params":null}"#)
                == .request(RequestFrame(id: "2", method: "health", params: nil)))
    }

    @Test func anUnknownTypeKeepsItsWholeObject() throws {
        let frame = try codec.decode(#"{"type":"cancel","id":"x","id":"y","why":null}"#)
        #expect(frame == .unknown(type: "cancel", raw: ["type": "cancel", "id": "y", "why": .null]))
    }

    @Test func aDocumentThatIsNotAnObjectIsNotAFrameAndBrokenJSONSaysWhy() {
        #expect(throws: FrameDecodingError.notAFrame) { try codec.decode(#"["type","event"]"#) }
        #expect(throws: FrameDecodingError.notAFrame) { try codec.decode(#""event""#) }
        #expect(throws: FrameDecodingError.notAFrame) { try codec.decode(#"{"event":"tick"}"#) }
        #expect(throws: FrameDecodingError.self) { try codec.decode(#"{"type":"event"} trailing"#) }
        do {
            _ = try codec.decode(#"{"type":"event","event":"chat""#)
            Issue.record("an unterminated object decoded")
        } catch {
            guard case .malformedJSON = error else {
                Issue.record("expected malformed JSON, got \(error)")
                return
            }
        }
    }

    @Test func usualNamesAreMatchedWholeAndOthersKeptAsWritten() throws {
        let names = [
            "seq", "se", "seqs", "type", "Type", "runId", "runIds", "sessionKey", "sessionKeY", "é", "deltaText",
        ]
        for name in names {
            let members = try JSONParser().parseEnvelope(#"{"\#(name)":1}"#)
            #expect(members?.map(\.key) == [name])
        }
    }
}

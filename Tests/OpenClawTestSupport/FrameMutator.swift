import OpenClawProtocol
import OpenClawTestGateway

/// Produces hostile variants of valid gateway frames for fuzzing: byte flips, truncations, splices,
/// type confusion inside the JSON tree, deep nesting, extreme numbers and invalid UTF-8.
public struct FrameMutator {
    public var random: SeededRandom
    /// Valid frames the mutations start from.
    public let corpus: [String]

    public init(seed: UInt64, corpus: [String] = FrameMutator.sampleFrames) {
        random = SeededRandom(seed: seed)
        self.corpus = corpus
    }

    /// One input: raw bytes (possibly not UTF-8, possibly not JSON).
    public mutating func next() -> [UInt8] {
        let base = Array(corpus[Int.random(in: 0..<corpus.count, using: &random)].utf8)
        switch Int.random(in: 0..<9, using: &random) {
        case 0: return flipBytes(base)
        case 1: return Array(base.prefix(Int.random(in: 0...base.count, using: &random)))
        case 2: return splice(base)
        case 3: return Array(JSONSerializer.string(confuse(parsed(base))).utf8)
        case 4: return Array(JSONSerializer.string(confuse(confuse(parsed(base)))).utf8)
        case 5: return deepNesting()
        case 6: return extremeValue(in: base)
        case 7: return invalidUTF8(base)
        default:
            return (0..<Int.random(in: 0...64, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
        }
    }

    private func parsed(_ bytes: [UInt8]) -> JSONValue {
        (try? JSONParser().parse(bytes)) ?? .null
    }

    private mutating func flipBytes(_ bytes: [UInt8]) -> [UInt8] {
        var result = bytes
        guard !result.isEmpty else { return result }
        for _ in 0..<Int.random(in: 1...8, using: &random) {
            let index = Int.random(in: 0..<result.count, using: &random)
            result[index] = Self.interesting.randomElement(using: &random) ?? 0
        }
        return result
    }

    private mutating func splice(_ bytes: [UInt8]) -> [UInt8] {
        let other = Array(corpus[Int.random(in: 0..<corpus.count, using: &random)].utf8)
        let cut = Int.random(in: 0...bytes.count, using: &random)
        let from = Int.random(in: 0...other.count, using: &random)
        return Array(bytes[..<cut]) + Array(other[from...])
    }

    /// Replaces one value somewhere in the tree by a value of another type, or drops/duplicates a key.
    private mutating func confuse(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(var object) where !object.isEmpty && random.chance(80):
            let keys = object.keys.sorted()
            let key = keys[Int.random(in: 0..<keys.count, using: &random)]
            switch Int.random(in: 0..<4, using: &random) {
            case 0: object[key] = nil
            case 1: object[key] = randomValue(depth: 0)
            default: object[key] = confuse(object[key] ?? .null)
            }
            return .object(object)
        case .array(var array) where !array.isEmpty && random.chance(80):
            let index = Int.random(in: 0..<array.count, using: &random)
            if random.chance(30) {
                array.append(contentsOf: Array(repeating: array[index], count: Int.random(in: 1...50, using: &random)))
            } else {
                array[index] = confuse(array[index])
            }
            return .array(array)
        default:
            return randomValue(depth: 0)
        }
    }

    private mutating func randomValue(depth: Int) -> JSONValue {
        switch Int.random(in: 0..<9, using: &random) {
        case 0: return .null
        case 1: return .bool(random.chance(50))
        case 2: return .int(Int.random(in: Int.min...Int.max, using: &random))
        case 3:
            return .double([-0.0, 1e308, -1e308, 0.5, Double.leastNonzeroMagnitude].randomElement(using: &random) ?? 0)
        case 4:
            return .string(
                ["", "final", "delta", "error", "aborted", "tool", "\u{0}", "🦞", "main"].randomElement(using: &random)
                    ?? "")
        case 5: return .string(String(repeating: "x", count: Int.random(in: 0...5000, using: &random)))
        case 6 where depth < 4:
            return .array((0..<Int.random(in: 0...4, using: &random)).map { _ in randomValue(depth: depth + 1) })
        case 7 where depth < 4:
            var object: [String: JSONValue] = [:]
            for key in ["type", "state", "runId", "seq", "message", "text", "phase", "data"].shuffled(using: &random)
                .prefix(3)
            {
                object[key] = randomValue(depth: depth + 1)
            }
            return .object(object)
        default: return .int(Int.random(in: -3...100_000, using: &random))
        }
    }

    private mutating func deepNesting() -> [UInt8] {
        let depth = Int.random(in: 200...20_000, using: &random)
        let open: UInt8 = random.chance(50) ? UInt8(ascii: "[") : UInt8(ascii: "{")
        if open == UInt8(ascii: "[") { return Array(repeating: open, count: depth) }
        return Array(String(repeating: "{\"a\":", count: depth).utf8)
    }

    private mutating func extremeValue(in bytes: [UInt8]) -> [UInt8] {
        let text = String(decoding: bytes, as: UTF8.self)
        let replacements = [
            "1e999999", "-0", "123456789012345678901234567890", "\"\\ud800\"", "NaN", "0x10", "1.", "-",
        ]
        let replacement = replacements.randomElement(using: &random) ?? "-"
        guard let digit = text.firstIndex(where: \.isNumber) else { return Array((text + replacement).utf8) }
        return Array((text[..<digit] + replacement + text[text.index(after: digit)...]).utf8)
    }

    private mutating func invalidUTF8(_ bytes: [UInt8]) -> [UInt8] {
        var result = bytes
        let index = Int.random(in: 0...result.count, using: &random)
        result.insert(
            contentsOf: [[0xC3], [0xED, 0xA0, 0x80], [0xFF, 0xFE], [0xF4, 0x90, 0x80, 0x80]].randomElement(
                using: &random) ?? [0xFF], at: index)
        return result
    }

    private static let interesting: [UInt8] = Array("{}[]\":,\\0123456789-+.eEtfn ".utf8) + [0, 0x7F, 0x80, 0xFF]

    /// Valid frames of both protocol versions: chat deltas and finals, agent tool and thinking events,
    /// a history response, a tick and a challenge.
    public static let sampleFrames: [String] = [
        #"{"type":"event","event":"chat","seq":5,"payload":{"runId":"r1","sessionKey":"main","seq":1,"state":"delta","message":{"role":"assistant","content":[{"type":"text","text":"Hel"}],"timestamp":1700000000000}}}"#,
        #"{"type":"event","event":"chat","seq":6,"payload":{"runId":"r1","sessionKey":"main","seq":2,"state":"delta","deltaText":"lo","message":{"role":"assistant","content":[{"type":"text","text":"Hello"}]}}}"#,
        #"{"type":"event","event":"chat","seq":7,"payload":{"runId":"r1","sessionKey":"main","seq":3,"state":"delta","deltaText":"Bye","replace":true}}"#,
        #"{"type":"event","event":"chat","seq":8,"payload":{"runId":"r1","sessionKey":"main","seq":4,"state":"final","message":{"role":"assistant","content":[{"type":"text","text":"Hello"}],"stopReason":"stop"}}}"#,
        #"{"type":"event","event":"chat","seq":9,"payload":{"runId":"r2","sessionKey":"main","seq":1,"state":"error","errorMessage":"boom","errorKind":"refusal"}}"#,
        #"{"type":"event","event":"chat","seq":10,"payload":{"runId":"r3","sessionKey":"main","seq":1,"state":"aborted","stopReason":"rpc"}}"#,
        #"{"type":"event","event":"agent","seq":11,"payload":{"runId":"r1","seq":3,"ts":1700000000100,"sessionKey":"main","stream":"tool","data":{"phase":"start","name":"exec","toolCallId":"t1","args":{"command":"ls"}}}}"#,
        #"{"type":"event","event":"agent","seq":12,"payload":{"runId":"r1","seq":4,"ts":1700000000900,"sessionKey":"main","stream":"tool","data":{"phase":"result","name":"exec","toolCallId":"t1","isError":false}}}"#,
        #"{"type":"event","event":"agent","seq":13,"payload":{"runId":"r1","seq":5,"ts":1700000001000,"sessionKey":"main","stream":"thinking","data":{"text":"hmm","delta":"m"}}}"#,
        #"{"type":"event","event":"agent","seq":14,"payload":{"runId":"r1","seq":6,"stream":"lifecycle","data":{"phase":"end"}}}"#,
        #"{"type":"res","id":"h1","ok":true,"payload":{"sessionKey":"main","sessionId":"s","messages":[{"role":"user","content":"hi","timestamp":1,"__openclaw":{"id":"e1","seq":1}},{"role":"assistant","content":[{"type":"thinking","thinking":"x"},{"type":"toolCall","id":"t1","name":"exec","arguments":{"command":"ls"}}],"timestamp":2,"__openclaw":{"id":"e2","seq":2}},{"role":"toolResult","toolCallId":"t1","content":[{"type":"text","text":"ok"}],"timestamp":3},{"role":"assistant","content":[{"type":"text","text":"done"}],"timestamp":4,"__openclaw":{"id":"e4","seq":4}}],"inFlightRun":{"runId":"r9","text":"part"}}}"#,
        #"{"type":"res","id":"x","ok":false,"error":{"code":"INVALID_REQUEST","message":"nope","retryable":false,"details":{"code":"AUTH_TOKEN_MISMATCH"}}}"#,
        #"{"type":"event","event":"tick","seq":15,"payload":{"ts":1700000002000}}"#,
        #"{"type":"event","event":"connect.challenge","payload":{"nonce":"abc","ts":1700000000000}}"#,
    ]
}

import Testing

@testable import OpenClawProtocol

@Suite("JSON parser and serializer")
struct JSONParserTests {
    let parser = JSONParser()

    @Test func parsesEveryKindOfValue() throws {
        let value = try parser.parse(#"{"a":[1,-2.5,true,false,null,"x"],"b":{"c":1e3},"d":""}"#)
        #expect(value["a"] == [1, -2.5, true, false, nil, "x"])
        #expect(value["b"]?["c"] == .double(1000))
        #expect(value["d"] == "")
    }

    @Test func keepsLargeIntegersExact() throws {
        let value = try parser.parse(#"{"ts":1737264000000,"big":9007199254740993}"#)
        #expect(value["ts"]?.intValue == 1_737_264_000_000)
        #expect(value["big"] == .int(9_007_199_254_740_993))
    }

    /// Strings are scanned eight bytes at a time: a quote, an escape or a control byte must stop the
    /// scan wherever it falls in a word, and multi-byte characters must pass through whole.
    @Test func stringsReadTheSameWhereverTheirSpecialBytesFall() throws {
        for length in 0...20 {
            let plain = String(repeating: "a", count: length)
            #expect(try parser.parse("[\"\(plain)\",1]") == [.string(plain), 1])
            #expect(throws: JSONParseError(reason: .unexpectedEnd, offset: length + 1)) {
                try parser.parse("\"\(plain)")
            }
            for position in 0...length {
                let head = String(plain.prefix(position))
                let tail = String(plain.dropFirst(position))
                #expect(try parser.parse("\"\(head)\\n\(tail)\\\"\"") == .string(head + "\n" + tail + "\""))
                #expect(try parser.parse("\"\(head)é😀\u{7F}\(tail)\"") == .string(head + "é😀\u{7F}" + tail))
                for control: UInt8 in [0x00, 0x0A, 0x1F] {
                    let text = "\"\(head)\(Character(Unicode.Scalar(control)))\(tail)\""
                    #expect(throws: JSONParseError(reason: .unexpectedByte(control), offset: position + 1)) {
                        try parser.parse(text)
                    }
                    // After an escape, the plain runs are scanned the same way.
                    #expect(throws: JSONParseError(reason: .unexpectedByte(control), offset: position + 3)) {
                        try parser.parse("\"\\t" + text.dropFirst())
                    }
                }
            }
        }
    }

    /// The word test behind the eight-bytes-at-a-time scan is exact: every byte value, at every place
    /// in a word of every other byte value, is found or passed over as a byte-by-byte check would.
    @Test func theWordTestFindsExactlyTheBytesThatEndAPlainRun() {
        func ends(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 }
        var mismatches = 0
        for background in UInt8.min...UInt8.max {
            for byte in UInt8.min...UInt8.max {
                for position in 0..<8 {
                    var bytes = [UInt8](repeating: background, count: 8)
                    bytes[position] = byte
                    let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
                    if JSONCursor.endsPlainRun(word) != bytes.contains(where: ends) { mismatches += 1 }
                }
            }
        }
        #expect(mismatches == 0)
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        let value = try parser.parse(#"["a\"b\\c\/d\n\t", "\u00e9\ud83d\ude00", "\ud800x"]"#)
        #expect(value.arrayValue?[0] == "a\"b\\c/d\n\t")
        #expect(value.arrayValue?[1] == "é😀")
        #expect(value.arrayValue?[2] == "\u{FFFD}x")
    }

    @Test(arguments: [
        "", "{", "[1,]", "{\"a\":}", "tru", "01", "1.", "-", "\"abc", "{\"a\" 1}", "[1] 2", "\"\u{01}\"",
        "{\"a\":1,}", "\"\\x\"", "\"\\u12\"",
    ])
    func rejectsMalformedInput(_ text: String) {
        #expect(throws: JSONParseError.self) { try parser.parse(text) }
    }

    @Test func boundsNestingDepth() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONParseError.self) { try parser.parse(deep) }
        let fine = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect((try? parser.parse(fine)) != nil)
    }

    @Test func serializerRoundTripsAndEscapes() throws {
        let original: JSONValue = ["text": "line\n\"quoted\" \u{01} é", "n": 42, "d": 0.5, "list": [true, nil]]
        let text = JSONSerializer.string(original)
        #expect(try parser.parse(text) == original)
        #expect(text.contains("\\u0001"))
    }

    @Test func serializerSortsKeysForStableOutput() {
        #expect(JSONSerializer.string(["b": 1, "a": 2]) == #"{"a":2,"b":1}"#)
    }

    @Test func objectDroppingLeavesOutNilMembers() {
        let value = JSONValue.object(dropping: [("a", .string("x")), ("b", nil), ("c", .int(nil))])
        #expect(value == ["a": "x"])
    }
}

import Testing

@testable import OpenClawProtocol

/// `JSONObject` keeps members in an array and finds names by comparing them, with an index past 16
/// members: it must read, compare and hash as the dictionary it replaced did, at any size.
@Suite("JSON objects")
struct JSONObjectTests {
    @Test(arguments: [3, 16, 17, 200])
    func readsComparesAndHashesAsADictionary(size: Int) throws {
        let pairs = (0..<size).map { ("name\($0)", JSONValue.int($0)) }
        let inOrder = JSONObject(pairs)
        let reversed = JSONObject(pairs.reversed())
        let fromDictionary = JSONObject(Dictionary(uniqueKeysWithValues: pairs))
        #expect(inOrder == reversed && inOrder == fromDictionary)
        #expect(inOrder.hashValue == reversed.hashValue && inOrder.hashValue == fromDictionary.hashValue)
        #expect(inOrder.count == size && inOrder.keys == pairs.map(\.0))
        for (key, value) in pairs { #expect(inOrder[key] == value && reversed[key] == value) }
        #expect(inOrder["name\(size)"] == nil && inOrder["name"] == nil && inOrder[""] == nil)

        var changed = inOrder
        changed["name1"] = "other"
        #expect(changed != inOrder && changed.count == size && changed["name1"] == "other")
        changed["name1"] = nil
        #expect(changed.count == size - 1 && changed["name1"] == nil && changed["name2"] == 2)
        changed["name1"] = 1
        #expect(changed == inOrder && changed.hashValue == inOrder.hashValue)
        #expect(changed.keys.last == "name1", "a member added again goes last")
        #expect(
            Dictionary(uniqueKeysWithValues: changed.map { ($0.key, $0.value) })
                == Dictionary(uniqueKeysWithValues: pairs))
    }

    @Test func ofDuplicateNamesTheLastValueCountsInTheFirstPlace() throws {
        let parsed = try JSONParser().parse(#"{"a":1,"b":2,"a":3}"#)
        #expect(parsed.objectValue?.keys == ["a", "b"])
        #expect(parsed["a"] == 3 && parsed == ["a": 3, "b": 2])
        #expect(JSONSerializer.string(parsed) == #"{"a":3,"b":2}"#)
        let literal: JSONObject = ["x": 1, "x": 2]
        #expect(literal.count == 1 && literal["x"] == 2)
    }

    /// Names are `String`s, equal when canonically equivalent, whatever their bytes: a KELVIN SIGN reads as
    /// `K`, a decomposed `é` as the composed one, below the index's threshold as above it (where the
    /// dictionary decides), so equality stays symmetric and agrees with the hash.
    @Test(arguments: [0, 15, 20])
    func canonicallyEquivalentNamesAreOneName(padding: Int) throws {
        let pad = (0..<padding).map { "\"k\($0)\":0," }.joined()
        let kelvin = try JSONParser().parse("{\(pad)\"session\u{212A}ey\":\"x\"}")
        #expect(kelvin["sessionKey"] == "x")
        let accents = try #require(try JSONParser().parse("{\(pad)\"é\":1,\"e\u{301}\":2}").objectValue)
        #expect(accents.count == padding + 1 && accents["é"] == 2 && accents["e\u{301}"] == 2)
        let other = try #require(try JSONParser().parse("{\(pad)\"é\":2,\"zz\":2}").objectValue)
        #expect(accents != other && other != accents)
        let same = try #require(try JSONParser().parse("{\(pad)\"e\u{301}\":2}").objectValue)
        #expect(accents == same && same == accents && accents.hashValue == same.hashValue)
    }

    @Test func objectsThatDifferOnlyInOneValueOrOneNameAreUnequal() {
        let base: JSONObject = ["a": 1, "b": ["c": [1, 2]]]
        #expect(base != ["a": 1, "b": ["c": [1, 3]]])
        #expect(base != ["a": 1, "B": ["c": [1, 2]]])
        #expect(base != ["a": 1])
        #expect(JSONValue.object(base) != .array([1, ["c": [1, 2]]]))
    }

    /// A hostile document of many members, all distinct or all the same name: with a lookup per member
    /// by comparison alone, 200,000 members would take minutes (4·10¹⁰ comparisons); with the index,
    /// milliseconds.
    @Test(arguments: [false, true])
    func aHugeObjectParsesInLinearTime(sameName: Bool) throws {
        let count = 200_000
        var document = "{"
        for number in 0..<count {
            if number > 0 { document += "," }
            document += sameName ? "\"k\":\(number)" : "\"k\(number)\":\(number)"
        }
        document += "}"
        let parsed = try JSONParser().parse(document)
        let object = try #require(parsed.objectValue)
        if sameName {
            #expect(object.count == 1 && object["k"] == .int(count - 1))
        } else {
            #expect(object.count == count && object["k0"] == 0 && object["k\(count - 1)"] == .int(count - 1))
            #expect(object == JSONObject(object.reversed().map { ($0.key, $0.value) }))
        }
    }
}

import OpenClawProtocol
import Testing

/// Queue modes, `commands.list` entries and `sessions.changed` usage deltas, decoded from what
/// late protocol 4 gateways send, hostile values included.
@Suite("Protocol: late v4 types")
struct LateV4TypesTests {
    @Test func queueModesReadAsTyped() {
        #expect(QueueMode(typed: "Steer") == .steer)
        #expect(QueueMode(typed: "follow-up") == .followup)
        #expect(QueueMode(typed: " collect ") == .collect)
        #expect(QueueMode(typed: "later") == nil)
    }

    @Test func chatSendCarriesTheQueueModeOnlyWhenSet() {
        let plain = ChatSendParams(sessionKey: "main", message: "hi", idempotencyKey: "k")
        #expect(plain.json["queueMode"] == nil)
        let steer = ChatSendParams(sessionKey: "main", message: "hi", idempotencyKey: "k", queueMode: .steer)
        #expect(steer.json["queueMode"] == "steer")
    }

    @Test func commandEntriesAreBoundedAndDeduplicated() throws {
        let long = String(repeating: "x", count: 201)
        let json: JSONValue = [
            "commands": [
                [
                    "name": "compact", "description": "Compact.", "source": "native", "scope": "both",
                    "acceptsArgs": true,
                ],
                ["name": "/model", "textAliases": ["/model", "/m"], "description": "Model.", "acceptsArgs": true],
                ["name": "compact", "description": "again"],
                ["name": .string(long), "description": "too long"],
                ["name": "two words", "description": "spaces"],
                ["description": "nameless"],
                ["name": 7],
            ]
        ]
        let result = try #require(CommandsListResult(json: json))
        #expect(result.commands.map(\.name) == ["compact", "model"])
        #expect(result.commands[1].aliases == ["/model", "/m"])
        #expect(result.commands[0].description == "Compact.")
        #expect(CommandsListResult(json: ["other": true]) == nil)
    }

    @Test func aHugeCommandListIsCut() throws {
        let items = (0..<600).map { JSONValue.object(["name": .string("c\($0)"), "description": ""]) }
        let result = try #require(CommandsListResult(json: ["commands": .array(items)]))
        #expect(result.commands.count == CommandsListResult.maxCommands)
    }

    @Test func usageDeltasKeepPresenceSemantics() throws {
        let change = try #require(
            SessionUsageChange(json: [
                "sessionKey": "agent:main:main", "phase": "end", "inputTokens": 1200, "outputTokens": .null,
                "totalTokens": "12", "contextTokens": -5, "estimatedCostUsd": 0.25, "totalTokensFresh": true,
            ]))
        #expect(change.inputTokens == .set(1200))
        #expect(change.outputTokens == .cleared)
        #expect(change.totalTokens == .set(12))
        #expect(change.contextTokens == .unchanged)
        #expect(change.estimatedCostUsd == .set(0.25))
        #expect(change.model == .unchanged)
        #expect(SessionUsageChange(json: ["inputTokens": 1]) == nil)
        #expect(SessionUsageChange(json: "text") == nil)
    }

    @Test func usageNestedUnderSessionIsRead() throws {
        let change = try #require(
            SessionUsageChange(json: ["sessionKey": "s", "session": ["key": "s", "contextTokens": 1000]]))
        #expect(change.contextTokens == .set(1000))
    }
}

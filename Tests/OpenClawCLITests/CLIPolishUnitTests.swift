import OpenClawChat
import OpenClawGateway
import OpenClawProtocol
import Testing

@testable import OpenClawCLI

@Suite("Terminal polish: did you mean, connection notices, session names, secret entry")
struct CLIPolishUnitTests {
    @Test func mistypedCommandsGetTheClosestName() {
        let names = OpenClawChatCommand.subcommandNames
        #expect(CommandSuggestion.closest(to: "sned", in: names) == "send")
        #expect(CommandSuggestion.closest(to: "histroy", in: names) == "history")
        #expect(CommandSuggestion.closest(to: "sesions", in: names) == "sessions")
        #expect(CommandSuggestion.closest(to: "doc", in: names) == "doctor")
        #expect(CommandSuggestion.closest(to: "xyzzy", in: names) == nil)
        #expect(OpenClawChatEntry.unknownCommandMessage("sned")?.contains("Did you mean 'send'?") == true)
        #expect(OpenClawChatEntry.unknownCommandMessage("send") == nil)
        #expect(OpenClawChatEntry.unknownCommandMessage("--url") == nil)
    }

    static func reconnecting(_ attempt: Int, _ cause: ReconnectStatus.Cause) -> ConnectionState {
        .reconnecting(ReconnectStatus(attempt: attempt, delay: .seconds(1), nextAttemptAt: .now, cause: cause))
    }

    @Test func aLongOutageSaysSoInAHandfulOfLines() {
        var notices = ConnectionNotices(initial: .connecting)
        let refused = ReconnectStatus.Cause.attemptFailed(.transport(.connectionRefused(host: "h", port: 1)))
        var lines = 0
        if notices.notice(for: Self.reconnecting(1, .disconnected(.connectionLost)), queued: 0) != nil { lines += 1 }
        for attempt in 2...120 {
            if notices.notice(for: .connecting, queued: 0) != nil { lines += 1 }
            if notices.notice(for: Self.reconnecting(attempt, refused), queued: 0) != nil { lines += 1 }
        }
        #expect(lines <= 8, "\(lines) lines for 120 attempts")
        #expect(notices.notice(for: .disconnected(nil), queued: 0) == .offline(reason: "disconnected"))
    }

    @Test func anErrorOnlyThePersonCanFixIsSaidOnceAndFlagged() {
        var notices = ConnectionNotices(initial: .connecting)
        let refused = GatewayError.authFailed(GatewayError.AuthFailure(code: nil, message: "bad token"))
        let notice = notices.notice(for: .failed(refused), queued: 0)
        #expect(notice == .failed(refused, needsPerson: true))
        #expect(notices.notice(for: .failed(refused), queued: 0) == nil)
    }

    @Test func theMainSessionHasOneName() {
        let keys = SessionKeyMatcher()
        #expect(SessionName.display("agent:main:main", keys: keys) == "main")
        #expect(SessionName.display("main", keys: keys) == "main")
        #expect(SessionName.display("agent:main:work", keys: keys) == "agent:main:work")
        #expect(SessionName.display("evil\u{1B}[2J", keys: keys) == "evil^[[2J")
    }

    @Test func aSecretIsTypedWithBackspaceAndCancelledWithCtrlC() {
        var entry = SecretEntry()
        for byte in Array("tokén".utf8) { #expect(entry.handle(byte) == nil) }
        #expect(entry.handle(0x7F) == nil)
        #expect(entry.text == "toké")
        #expect(entry.handle(0x7F) == nil)
        #expect(entry.handle(0x0D) == .entered("tok"))
        var cancelled = SecretEntry()
        #expect(cancelled.handle(UInt8(ascii: "a")) == nil)
        #expect(cancelled.handle(0x03) == .cancelled)
    }
}

@Suite("/model: reading the choice")
struct ModelPickerTests {
    static let models = [
        ModelChoice(id: "big", name: "Big Model", provider: "acme", alias: "b"),
        ModelChoice(id: "small", name: "small", provider: "acme"),
    ]

    @Test func numbersIdsAliasesAndDefault() {
        #expect(ModelPicker.request("", models: Self.models) == .list)
        #expect(ModelPicker.request("2", models: Self.models) == .choose(Self.models[1]))
        #expect(ModelPicker.request("3", models: Self.models) == .unknown("3"))
        #expect(ModelPicker.request("B", models: Self.models) == .choose(Self.models[0]))
        #expect(ModelPicker.request("acme/small", models: Self.models) == .choose(Self.models[1]))
        #expect(ModelPicker.request("default", models: Self.models) == .reset)
        #expect(ModelPicker.request("nope", models: Self.models) == .unknown("nope"))
    }

    @Test func theCurrentModelIsMarked() {
        #expect(
            ModelPicker.lines(Self.models, current: "small") == [
                "   1. acme/big (b)  Big Model", " ● 2. acme/small",
            ])
    }
}

/// `node` over plaintext to another machine is refused unless the user opts in.
@Suite("Node transport")
struct NodeTransportTests {
    @Test func plaintextToAnotherMachineNeedsAnOptIn() throws {
        let remote = try GatewayURL(parsing: "ws://127.0.0.1.attacker.example:18789")
        let refusal = try #require(NodeCommand.transportRefusal(remote, flag: false, environment: nil))
        #expect(refusal.status == ExitStatus.usage)
        #expect(refusal.description.contains("--allow-insecure-ws"))
        #expect(NodeCommand.transportRefusal(remote, flag: true, environment: nil) == nil)
        #expect(NodeCommand.transportRefusal(remote, flag: false, environment: "1") == nil)
        let loopback = try GatewayURL(parsing: "ws://127.0.0.1:1")
        #expect(NodeCommand.transportRefusal(loopback, flag: false, environment: nil) == nil)
        let secure = try GatewayURL(parsing: "wss://gw.example")
        #expect(NodeCommand.transportRefusal(secure, flag: false, environment: nil) == nil)
    }
}

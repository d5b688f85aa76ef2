import OpenClawGateway
import OpenClawProtocol
import Testing

@testable import OpenClawApprovals
@testable import OpenClawCLI
@testable import OpenClawChat

/// The surfaces that print one piece of remote text each (an approval id, a search role, a gateway's
/// error, a link target), with what a hostile gateway would put there.
@Suite("Remote text surfaces: ids, roles, errors and link targets escaped")
struct RemoteTextSurfacesTests {
    static let hostile = "x\u{200B}\u{202E}\u{1B}[2J\u{9B}"
    static let escaped = "x<U+200B><U+202E>^[[2J<U+009B>"

    /// The hostile characters themselves (our own styling may add ESC: the escaped forms are checked).
    static func expectNothingHidden(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let raw = text.unicodeScalars.filter { [0x200B, 0x202E, 0x9B, 0xE0041].contains($0.value) }
        #expect(raw.isEmpty, "raw in \(text.debugDescription)", sourceLocation: sourceLocation)
    }

    @Test func anApprovalIdIsEscapedOnTheCardAndInTheOutcome() throws {
        let request = ExecApprovalRequest(
            id: Self.hostile + "-rest", command: "make", createdAtMs: 0, expiresAtMs: 60_000)
        let approval = PendingApproval(request: request, receivedAt: .now, wallClockNowMs: 0)
        let terminal = Terminal(environment: ["NO_COLOR": "1"])
        let card = ApprovalText.card(
            approval, shortId: request.id, now: .now, commands: { $0.rawValue }, terminal: terminal
        ).joined(separator: "\n")
        #expect(card.contains(Self.escaped + "-rest"), "\(card.debugDescription)")
        Self.expectNothingHidden(card)
        let closed = ClosedApproval(approval: approval, outcome: .expired)
        let outcome = ApprovalText.outcome(closed, shortId: request.id, terminal: terminal)
        #expect(outcome.contains(Self.escaped), "\(outcome.debugDescription)")
        Self.expectNothingHidden(outcome)
    }

    @Test func aSearchHitsRoleIsEscaped() {
        let hit = SearchHit(
            gateway: "ws://gw", sessionKey: "agent:main:main", messageId: "m", role: ChatRole(wireValue: Self.hostile),
            parts: [.init(text: "found", isMatch: true)], timestampMs: nil)
        let header = SearchOutput.header(hit, showGateway: false)
        #expect(header.hasSuffix(" · " + Self.escaped), "\(header.debugDescription)")
        Self.expectNothingHidden(header)
    }

    @Test func aGatewaysErrorTextIsEscaped() {
        let label = GatewaysCommand.label(.gatewayUnavailable(retryAfterMs: nil, message: Self.hostile))
        #expect(label.contains(Self.escaped), "\(label.debugDescription)")
        Self.expectNothingHidden(label)
    }

    /// A link in a reply becomes an OSC 8 target: hidden characters in it are shown (escaped with the
    /// reply's line), and whatever else is not printable ASCII is percent-encoded, so nothing in the
    /// target can end the sequence or hide where it points.
    @Test func hyperlinkTargetsCarryNothingHidden() {
        let renderer = MarkdownTerminalRenderer(width: 80, hyperlinks: true)
        let rendered = MarkdownOutput.render(
            "see [the docs](https://docs.test/a\u{200B}\u{202E}b\u{E0041}é)\n", with: renderer)
        #expect(rendered.contains("\u{1B}]8;;https://docs.test/a<U+200B><U+202E>b<U+E0041>%C3%A9\u{1B}\\"))
        Self.expectNothingHidden(rendered)

        var span = StyledSpan(text: "click")
        span.link = "https://a.test/x y\u{1B}\\\u{07}\u{9C}"
        let ansi = StyledLine([span]).ansi(hyperlinks: true)
        #expect(ansi == "\u{1B}]8;;https://a.test/x%20y%1B\\%07%C2%9C\u{1B}\\click\u{1B}]8;;\u{1B}\\")
    }

    @Test(arguments: [
        ("wss://mini.local:18789", "wss://mini.local:18789"),
        ("ws://evil $(touch pwned).local:18789", "'ws://evil $(touch pwned).local:18789'"),
        ("ws://it's.local", #"'ws://it'\''s.local'"#),
        ("a;b`c`|d&e>f", "'a;b`c`|d&e>f'"),
        ("", "''"),
    ])
    func shellWordsAreQuotedWhenTheyNeedIt(word: String, quoted: String) {
        #expect(ShellWord.quoted(word) == quoted)
    }
}

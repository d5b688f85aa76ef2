import Foundation
import OpenClawProtocol
import OpenClawTestGateway
import Testing

@testable import OpenClawCLI

/// A mistyped value is a usage error before anything is sent, in options and in the chat's `/think`.
@Suite("Usage errors for bad option values")
struct OptionValuesCLITests {
    @Test func aBogusThinkingLevelOrAnEmptySessionExitsTwoWithoutConnecting() async throws {
        try await CLITests.withGateway { gateway, common in
            let bogus = try await CLIProcess.run(["send"] + common + ["--thinking", "bogus", "hello"])
            #expect(bogus.status == ExitStatus.usage, "\(bogus.stderr)")
            #expect(bogus.stderr.contains("--thinking bogus is not a thinking level"), "\(bogus.stderr)")
            #expect(bogus.stderr.contains("off, minimal, low, medium, high, xhigh"), "\(bogus.stderr)")
            for arguments in [
                ["chat"] + common + ["--thinking", "bogus"], ["send"] + common + ["--session", "", "hi"],
                ["chat"] + common + ["--session", "  "], ["history"] + common + ["--session", ""],
            ] {
                let result = try await CLIProcess.run(arguments, stdin: "")
                #expect(result.status == ExitStatus.usage, "\(arguments): \(result.stderr)")
            }
            #expect(await gateway.requestCount(method: "chat.send") == 0)
            #expect(await gateway.receivedConnectParams().isEmpty)
            // Upstream's aliases are levels.
            let alias = try await CLIProcess.run(["send"] + common + ["--thinking", "X-High", "hello"])
            #expect(alias.status == 0, "\(alias.stderr)")
        }
    }

    @Test func thinkInTheChatRefusesAWordThatIsNoLevel() async throws {
        try await CLITests.withGateway { _, common in
            let result = try await CLIProcess.run(
                ["chat"] + common, stdin: "/think bogus\n/think\n/think extra high\n/quit\n")
            #expect(result.status == 0, "\(result.stderr)")
            let all = result.stdout + result.stderr
            #expect(all.contains("bogus is not a thinking level"), "\(all)")
            #expect(all.contains("thinking level: session default"), "\(all)")
            #expect(all.contains("thinking level: xhigh"), "\(all)")
        }
    }
}

@Suite("Thinking levels and /attach paths")
struct OptionValuesTests {
    @Test func levelsAcceptUpstreamsIdsAndAliases() {
        #expect(ThinkingLevelProbe.parse("MAX") == "max")
        #expect(ThinkingLevelProbe.parse(" x_high ") == "xhigh")
        #expect(ThinkingLevelProbe.parse("highest") == "high")
        #expect(ThinkingLevelProbe.parse("bogus") == nil)
        #expect(ThinkingLevelProbe.parse("") == nil)
    }

    @Test func attachTakesQuotedEscapedTildeAndDroppedPaths() throws {
        let existing: Set<String> = ["/home/me/My Photo.png"]
        func paths(_ line: String) -> [String]? {
            AttachPaths(line, home: "/home/me", exists: existing.contains)?.paths
        }
        // A whole line that names a file is that file, spaces and all.
        #expect(paths("~/My Photo.png") == ["/home/me/My Photo.png"])
        #expect(paths(#"~/My\ Photo.png"#) == ["/home/me/My Photo.png"])
        #expect(paths("'/tmp/a b.pdf' \"/tmp/c d.txt\"") == ["/tmp/a b.pdf", "/tmp/c d.txt"])
        #expect(paths(#"/tmp/it\'s.png ~/x.png"#) == ["/tmp/it's.png", "/home/me/x.png"])
        #expect(paths("file:///tmp/with%20space.png") == ["/tmp/with space.png"])
        #expect(paths("'~/literal'") == ["~/literal"])
        #expect(paths(#""/tmp/say \"hi\".txt""#) == [#"/tmp/say "hi".txt"#])
        #expect(paths("'/tmp/open") == nil)
        #expect(paths(#"/tmp/trailing\"#) == nil)
    }
}

/// The protocol module's level parser, through the name the CLI uses.
private enum ThinkingLevelProbe {
    static func parse(_ text: String) -> String? { OptionValues.thinkingLevel(text)?.rawValue }
}

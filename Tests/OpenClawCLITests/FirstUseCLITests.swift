import ArgumentParser
import Foundation
import OpenClawGateway
import OpenClawTestGateway
import Testing

@testable import OpenClawCLI

/// First use and scripting as people try them: a question as the only argument, options before the
/// command, piped text with a prompt, a token without an address.
@Suite("openclaw-chat: first use and scripting")
struct FirstUseCLITests {
    @Test func aQuestionAsTheOnlyArgumentIsSentAndOptionsMayComeFirst() async throws {
        try await CLITests.withGateway { gateway, common in
            let asked = try await CLIProcess.run(common + ["what is this?"])
            #expect(asked.status == 0, "\(asked.stderr)")
            #expect(asked.stdout.contains("is the scripted test agent."), "\(asked.stdout)")
            let history = try await CLIProcess.run(common + ["history", "--limit", "2"])
            #expect(history.status == 0, "\(history.stderr)")
            #expect(history.stdout.contains("what is this?"), "\(history.stdout)")
            #expect(await gateway.sentUserMessages(sessionKey: "main") == ["what is this?"])
            // A typo of a command stays a usage error that says how to ask it instead.
            let typo = try await CLIProcess.run(common + ["histroy"])
            #expect(typo.status == ExitStatus.usage)
            #expect(typo.stderr.contains("Did you mean 'history'?"), "\(typo.stderr)")
        }
    }

    @Test func pipedTextGoesBeforeThePrompt() async throws {
        try await CLITests.withGateway { gateway, common in
            let result = try await CLIProcess.run(["send"] + common + ["summarize"], stdin: "line one\nline two\n")
            #expect(result.status == 0, "\(result.stderr)")
            #expect(await gateway.sentUserMessages(sessionKey: "main") == ["line one\nline two\n\nsummarize"])
        }
    }

    @Test func aTokenWithoutAnAddressUsesTheLocalGatewayOrElseTheDemo() async throws {
        try await CLITests.withGateway { gateway, _ in
            let port = try #require(URL(string: gateway.url)?.port)
            let state = CLIProcess.temporaryStateDirectory()
            let sent = try await CLIProcess.run(
                ["send", "--token", "test-token", "--state-dir", state, "hello"],
                environment: ["OPENCLAW_GATEWAY_PORT": "\(port)"])
            #expect(sent.status == 0, "\(sent.stderr)")
            #expect(sent.stderr.contains("using the local gateway at ws://127.0.0.1:\(port)"), "\(sent.stderr)")
            #expect(await gateway.sentUserMessages(sessionKey: "main") == ["hello"])
        }
        // A token in the environment alone is not sent to whatever listens here: it may be another
        // gateway's, and `node` never guesses a gateway at all.
        try await CLITests.withGateway { gateway, _ in
            let port = try #require(URL(string: gateway.url)?.port)
            let state = CLIProcess.temporaryStateDirectory()
            let environment = ["OPENCLAW_GATEWAY_PORT": "\(port)", "OPENCLAW_GATEWAY_TOKEN": "test-token"]
            let sent = try await CLIProcess.run(["send", "--state-dir", state, "hello"], environment: environment)
            #expect(sent.status == ExitStatus.usage && sent.stderr.contains("No gateway configured"), "\(sent.stderr)")
            let node = try await CLIProcess.run(
                ["node", "--token", "test-token", "--state-dir", state],
                environment: ["OPENCLAW_GATEWAY_PORT": "\(port)"], timeout: .seconds(10))
            #expect(node.status == ExitStatus.usage, "\(node.stderr)")
            #expect(await gateway.receivedConnectParams().isEmpty)
        }
        // Nothing listens on port 1: the chat says so and starts the demo.
        let chat = try await CLIProcess.run(
            ["chat", "--token", "t", "--state-dir", CLIProcess.temporaryStateDirectory()], stdin: "hello\n/quit\n",
            environment: ["OPENCLAW_GATEWAY_PORT": "1"])
        #expect(chat.status == 0, "\(chat.stderr)")
        #expect(chat.stderr.contains("Nothing is listening at ws://127.0.0.1:1: starting the built-in demo"))
        #expect(chat.stdout.contains("is the scripted test agent."), "\(chat.stdout)")
    }

    @Test func loginAloneOnATerminalAsksForTheAddressThenTheToken() async throws {
        try await CLITests.withGateway { gateway, common in
            let state = common[5]
            let login = try InteractiveProcess(["login", "--state-dir", state], mode: .terminal)
            defer { login.killIfRunning() }
            try await login.waitFor("Gateway address (Enter for ws://127.0.0.1:18789): ")
            login.write(gateway.url + "\r")
            try await login.waitFor("Gateway token for")
            login.write("test-token\r")
            #expect(try await login.waitForExit() == 0, "output:\n\(login.output)")
            #expect(login.output.contains("Saved as 'default' in"), "\(login.output)")
            let saved = try String(contentsOfFile: state + "/credentials/gateway.json", encoding: .utf8)
            #expect(saved.contains(gateway.url), "\(saved)")
        }
    }

    @Test func anAddressSavedBeforeWsMeant18789KeepsItsPort() throws {
        let saved = GatewayProfile(name: "old", url: "ws://gw.lan", credential: .token("t"))
        #expect(saved.address?.port == 80)
        #expect(try GatewayURL(parsing: "ws://gw.lan").port == 18789)
        // What is saved now names its port, so it reads the same either way.
        let now = try GatewayURL(parsing: "ws://gw.lan").absoluteString
        #expect(try GatewayURL(parsingSaved: now).port == 18789)
        #expect(try GatewayURL(parsingSaved: GatewayURL(parsingSaved: "ws://gw.lan").absoluteString).port == 80)
    }

    /// `doctor` and `trust` parse the configured text themselves: a saved `ws://host` reaches them with
    /// the port it was saved to mean, as the chat reads it.
    @Test func aSavedAddressIsTheSameForEveryCommand() throws {
        let state = CLIProcess.temporaryStateDirectory()
        var profiles = try GatewayProfiles.loadMigrating(from: state + "/credentials/gateway.json")
        profiles.save(GatewayProfile(name: "old", url: "ws://gw.lan", credential: .token("t")))
        try FileManager.default.createDirectory(atPath: state + "/credentials", withIntermediateDirectories: true)
        try profiles.save(to: state + "/credentials/gateway.json")
        let options = try GlobalOptions.parse(["--state-dir", state])
        #expect(try options.configuredURLText() == "ws://gw.lan:80")
        #expect(try options.resolveGateway()?.url.port == 80)
        let typed = try GlobalOptions.parse(["--state-dir", state, "--url", "ws://gw.lan"])
        #expect(try typed.configuredURLText() == "ws://gw.lan")
        #expect(try typed.resolveGateway()?.url.port == 18789)
    }

    @Test func sharedOptionsBeforeACommandMoveAfterIt() {
        #expect(
            ArgumentOrder.rearranged(["--gateway", "work", "history", "--limit", "3"])
                == ["history", "--gateway", "work", "--limit", "3"])
        #expect(
            ArgumentOrder.rearranged(["--url=ws://h", "--verbose", "approvals", "watch"])
                == ["approvals", "watch", "--url=ws://h", "--verbose"])
        #expect(ArgumentOrder.rearranged(["--session", "work", "why?"]) == ["send", "--session", "work", "why?"])
        #expect(ArgumentOrder.rearranged(["sned", "hi"]) == ["sned", "hi"])
        // One bare word is no question: a mistyped command, or a secret that lost its option.
        #expect(ArgumentOrder.rearranged(["--url", "ws://h", "sk-abc123"]) == ["sk-abc123", "--url", "ws://h"])
        #expect(ArgumentOrder.rearranged(["why?"]) == ["send", "why?"])
        #expect(ArgumentOrder.rearranged(["--url", "ws://h"]) == ["--url", "ws://h"])
        #expect(ArgumentOrder.rearranged(["--help"]) == ["--help"])
        #expect(ArgumentOrder.rearranged(["help", "send"]) == ["help", "send"])
    }

    /// The word `main` reads, before anything is set up, to leave the network's loops out of `search`:
    /// the command `rearranged` puts first.
    @Test func theCommandWordIsTheOneThatGoesFirst() {
        for arguments in [
            ["search", "x"], ["--gateway", "work", "search", "x"], ["--url=ws://h", "--verbose", "search", "x"],
            ["--state-dir", "/tmp/s", "--trace", "search"], ["send", "search"], ["--url", "ws://h"], ["--help"],
            ["help", "search"], ["--state-dir"], ["why?"], [],
        ] {
            let word = ArgumentOrder.commandWord(arguments)
            #expect((word == "search") == (ArgumentOrder.rearranged(arguments).first == "search"), "\(arguments)")
        }
        #expect(ArgumentOrder.commandWord(["--gateway", "work", "search", "x"]) == "search")
        #expect(ArgumentOrder.commandWord(["--url", "ws://h"]) == nil)
    }
}

import OpenClawProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One tool call of a scripted run: what the agent asks for, how long it "runs", what it returns.
public struct ScriptedToolCall: Sendable, Hashable {
    public var name: String
    public var arguments: JSONValue
    public var result: String
    public var isError: Bool
    /// Time between the tool `start` and `result` events.
    public var durationMs: Int

    public init(name: String, arguments: JSONValue, result: String, isError: Bool = false, durationMs: Int = 50) {
        self.name = name
        self.arguments = arguments
        self.result = result
        self.isError = isError
        self.durationMs = durationMs
    }
}

/// One thing a scripted run does, in order.
public enum AgentStep: Sendable, Hashable {
    /// Reasoning text, streamed as `thinking` agent events and stored as a thinking block.
    case thinking(String)
    /// A tool call; closes the current assistant message with `stopReason: "toolUse"`.
    case tool(ScriptedToolCall)
    /// Visible text appended to the reply, streamed in chunks of ``AgentScript/chunkSize``.
    case say(String)
    /// Replaces the whole visible text with a string that does not extend it (v4 `replace: true`).
    case replaceText(String)
    /// A v4 `status` chat event with this phase (late gateways, e.g. `preparing_context`); nothing in v3.
    case status(String)
    /// Late v4: the text so far is committed to the transcript and the live text restarts with
    /// `{deltaText: "", replace: true}`; nothing in v3.
    case commitText
    /// Waits without emitting anything.
    case pause(ms: Int)
    /// Ends the run with a `chat` `error` event.
    case fail(message: String, kind: String)
    /// Asks the gateway's approvers to approve a command and waits: allowed → the next steps; denied,
    /// expired or no approver → the agent says so and the run ends.
    case approval(ScriptedApproval)
    /// Asks the operator (upstream's `ask_user` tool) and waits: the agent then says what it got (the
    /// answer, or that it goes on without one).
    case ask(ScriptedQuestion)
    /// A generated image of this many bytes: an `image` block with an `artifactId` in the reply, the
    /// bytes served by `artifacts.download`.
    case image(byteCount: Int)
}

/// A deterministic run: the steps, how text is chunked and paced, and whether the reply is silent.
public struct AgentScript: Sendable, Hashable {
    public var steps: [AgentStep]
    /// Characters per streamed text chunk (one agent event and one chat delta each).
    public var chunkSize: Int
    /// Pause after each streamed chunk.
    public var chunkDelayMs: Int
    /// A silent reply (`NO_REPLY`): no deltas, and a `final` without `message`.
    public var silent: Bool

    public init(steps: [AgentStep], chunkSize: Int = 8, chunkDelayMs: Int = 5, silent: Bool = false) {
        self.steps = steps
        self.chunkSize = max(1, chunkSize)
        self.chunkDelayMs = max(0, chunkDelayMs)
        self.silent = silent
    }
}

/// The test gateway's agent: picks a script from the user's message.
///
/// Triggers (case-insensitive substring, first match wins): ``approvalTrigger`` (default
/// `run a command`, optionally followed by `: COMMAND`) → an exec approval, then the command's tool
/// call and a reply, or the refusal; ``questionTrigger`` (default `ask me`, optionally `: QUESTION`) →
/// a question to the operator, then a reply saying the answer; `fail` → an `error` run; `silent` → a
/// silent final; `shrink` → a non-prefix rewrite; `until stopped` → ``heldWords``, then nothing for ten
/// minutes (abort tests: a run still going however loaded the machine); `slow` → a long reply streamed
/// slowly; `draw` → a reply with a generated image; `stream N` → N equal chunks with no delay
/// (benchmarks); ``toolTrigger`` (default `tool`) → thinking, one `exec` tool call and a text reply;
/// anything else → a reply quoting the message.
public struct ScriptedAgent: Sendable {
    public var chunkSize: Int
    public var chunkDelayMs: Int
    /// Chunk delay of the `slow` script.
    public var slowChunkDelayMs: Int
    public var toolTrigger: String
    public var toolDurationMs: Int
    /// When set, decides every script and the triggers above are ignored.
    public var custom: (@Sendable (String) -> AgentScript)?
    /// Starts a run that needs an exec approval (see ``approvalScript(for:)``).
    public var approvalTrigger = "run a command"
    /// Starts a run that asks the operator a question (see ``questionScript(for:)``).
    public var questionTrigger = "ask me"
    /// The command asked about when the message names none.
    public static let defaultApprovalCommand = "rm -rf ./build && make release"
    /// `draw` → a reply with one generated image of this size.
    public var drawnImageBytes = 4096

    public init(
        chunkSize: Int = 8,
        chunkDelayMs: Int = 5,
        slowChunkDelayMs: Int = 100,
        toolTrigger: String = "tool",
        toolDurationMs: Int = 50,
        custom: (@Sendable (String) -> AgentScript)? = nil
    ) {
        self.chunkSize = chunkSize
        self.chunkDelayMs = chunkDelayMs
        self.slowChunkDelayMs = slowChunkDelayMs
        self.toolTrigger = toolTrigger
        self.toolDurationMs = toolDurationMs
        self.custom = custom
    }

    /// An agent whose every script comes from `script`.
    public static func custom(_ script: @escaping @Sendable (String) -> AgentScript) -> ScriptedAgent {
        ScriptedAgent(custom: script)
    }

    /// The script for a user message.
    public func script(for message: String) -> AgentScript {
        if let custom { return custom(message) }
        if let script = approvalScript(for: message) { return script }
        if let script = questionScript(for: message) { return script }
        let lowered = message.lowercased()
        if ChatCommandText.isResetCommand(message) {
            return script([.say("New session started. What shall we work on?")])
        }
        if lowered.contains("draw") {
            return script([.say("Here is the drawing."), .image(byteCount: drawnImageBytes)])
        }
        if lowered.contains("markdown") {
            return script([.say(Self.markdownReply)])
        }
        if lowered.contains("fail") {
            return script([
                .say("Working on it"), .fail(message: "LLM request failed: scripted failure", kind: "unknown"),
            ])
        }
        if lowered.contains("silent") {
            return AgentScript(
                steps: [.say("NO_REPLY")], chunkSize: chunkSize, chunkDelayMs: chunkDelayMs, silent: true)
        }
        if lowered.contains("shrink") {
            return script([.say("Draft answer: maybe 41. "), .replaceText("Final answer: 42."), .say(" Done.")])
        }
        if lowered.contains("until stopped") {
            return script([.say(Self.heldWords), .pause(ms: 600_000), .say("word6")])
        }
        if lowered.contains("slow") {
            let words = (1...60).map { "word\($0) " }.joined()
            return AgentScript(steps: [.say(words)], chunkSize: chunkSize, chunkDelayMs: slowChunkDelayMs)
        }
        if let count = Self.streamCount(in: lowered) {
            return AgentScript(steps: [.say(String(repeating: "chunk ", count: count))], chunkSize: 6, chunkDelayMs: 0)
        }
        if !toolTrigger.isEmpty, lowered.contains(toolTrigger.lowercased()) {
            let call = ScriptedToolCall(
                name: "exec",
                arguments: ["command": "curl -s https://status.example.test/health"],
                result: "HTTP/1.1 200 OK\n{\"status\":\"ok\"}",
                durationMs: toolDurationMs
            )
            return script([
                .thinking("The user wants a tool run; I will call exec."),
                .tool(call),
                .say("The service is healthy: the check returned status ok."),
            ])
        }
        return script([.say("You said: \"\(message)\". This is the scripted test agent.")])
    }

    /// What an `until stopped` reply says before it stops to wait.
    public static let heldWords = "word1 word2 word3 word4 word5 "

    /// The reply to a message that mentions `markdown`: a heading, emphasis, a list, a table and a fenced
    /// code block, what a terminal or an app must render (and a pipe must pass on unchanged).
    public static let markdownReply = """
        ## Disk usage

        The **largest** folder is `~/Library/Caches`; details below.

        | Folder | Size | Change |
        |:-------|-----:|:------:|
        | Caches | 14.2 GB | +3.1 GB |
        | Downloads | 6.8 GB | -0.4 GB |

        ```sh
        du -sh ~/Library/Caches/* | sort -h | tail -5
        ```

        - clear the caches you do not need
        - keep *Downloads* tidy
        """

    /// `run a command` → approve the default command; `run a command: TEXT` → approve TEXT exactly as
    /// typed (hostile strings included). Allowed, the command "runs" as an `exec` tool call.
    public func approvalScript(for message: String) -> AgentScript? {
        guard !approvalTrigger.isEmpty, let range = message.firstRange(caseInsensitive: approvalTrigger)
        else { return nil }
        var rest = message[range.upperBound...]
        var command = Self.defaultApprovalCommand
        if rest.first == ":" {
            rest = rest.dropFirst().drop(while: { $0 == " " })
            if !rest.isEmpty { command = String(rest) }
        }
        let call = ScriptedToolCall(
            name: "exec", arguments: ["command": .string(command)], result: "exit 0", durationMs: toolDurationMs)
        return script([
            .thinking("This needs a shell command; the host asks before running it."),
            .approval(ScriptedApproval(command: command)),
            .tool(call),
            .say("Done: the command ran and exited 0."),
        ])
    }

    /// `ask me` → the agent asks ``ScriptedQuestion/deployTarget(question:)`` and waits; `ask me: TEXT`
    /// asks TEXT exactly as typed (hostile strings included). The reply says what was answered.
    public func questionScript(for message: String) -> AgentScript? {
        guard !questionTrigger.isEmpty, let range = message.firstRange(caseInsensitive: questionTrigger)
        else { return nil }
        var rest = message[range.upperBound...]
        var question = ScriptedQuestion.deployTarget()
        if rest.first == ":" {
            rest = rest.dropFirst().drop(while: { $0 == " " })
            if !rest.isEmpty { question = .deployTarget(question: String(rest)) }
        }
        return script([.say("One question first. "), .ask(question), .say(" Carrying on.")])
    }

    private func script(_ steps: [AgentStep]) -> AgentScript {
        AgentScript(steps: steps, chunkSize: chunkSize, chunkDelayMs: chunkDelayMs)
    }

    /// N from "stream N" (1...1,000,000), the benchmark trigger.
    static func streamCount(in lowered: String) -> Int? {
        let marker = Array("stream ")
        let characters = Array(lowered)
        guard characters.count > marker.count,
            let start = (0...(characters.count - marker.count)).first(where: {
                Array(characters[$0..<($0 + marker.count)]) == marker
            })
        else { return nil }
        let digits = String(characters[(start + marker.count)...].prefix { $0.isNumber })
        guard let count = Int(digits), (1...1_000_000).contains(count) else { return nil }
        return count
    }
}

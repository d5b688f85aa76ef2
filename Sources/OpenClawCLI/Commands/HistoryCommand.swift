import ArgumentParser
import OpenClawChat
import OpenClawGateway
import OpenClawPresentation
import OpenClawProtocol

/// `openclaw-chat history`: the session's stored messages.
struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        _superCommandName: OpenClawChatCommand.name,
        abstract: "Print the latest messages of a session."
    )

    @OptionGroup var global: GlobalOptions
    @Option(help: "Session key.") var session = "main"
    @Option(help: "How many messages (1-1000).") var limit = 50
    @Flag(help: "One JSON object per message.") var json = false

    func validate() throws {
        try OptionValues.checkSession(session)
        guard (1...ChatHistoryParams.maximumLimit).contains(limit) else {
            throw ValidationError("--limit must be between 1 and \(ChatHistoryParams.maximumLimit)")
        }
    }

    func run() async throws {
        let terminal = Terminal()
        do {
            let page = try await global.withConnection(terminal: terminal) { [session, limit] connection in
                try await ChatClient(connection: connection).history(sessionKey: session, limit: limit)
            }
            terminal.buffered { terminal in
                if json {
                    for message in page.messages { terminal.line(JSONSerializer.string(HistoryJSON.json(message))) }
                } else {
                    // The rows the app shows: tool-only messages folded into the reply's steps, marks on
                    // stopped or failed replies.
                    var transcript = Transcript(sessionKey: page.sessionKey)
                    transcript.apply(.historyLoaded(page))
                    var printer = RowPrinter(
                        terminal: terminal, markdown: MarkdownOutput.renderer(for: terminal), showsTime: true)
                    printer.offersExpand = false
                    printer.print(MessageRow.rows(for: transcript.entries))
                }
            }
            if page.messages.isEmpty, !json {
                terminal.line(terminal.styled("(no messages in \(SessionName.display(session)))", .dim))
            }
        } catch {
            throw report(error, terminal: terminal)
        }
    }
}

/// `openclaw-chat sessions`: the gateway's sessions.
struct SessionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions", _superCommandName: OpenClawChatCommand.name, abstract: "List the gateway's sessions.")

    @OptionGroup var global: GlobalOptions
    @Flag(help: "One JSON object per session.") var json = false

    func run() async throws {
        let terminal = Terminal()
        do {
            let (sessions, keys) = try await global.withConnection(terminal: terminal) { connection in
                let keys = SessionKeyMatcher(defaults: await connection.session?.hello.snapshot.sessionDefaults)
                return (try await ChatClient(connection: connection).sessions().sessions, keys)
            }
            for session in sessions {
                if json {
                    terminal.line(
                        JSONSerializer.string(
                            .object(dropping: [
                                ("key", .string(session.key)), ("title", .string(session.title)),
                                ("updatedAt", .int(session.updatedAt)),
                            ])
                        )
                    )
                } else {
                    let key = SessionName.display(session.key, keys: keys)
                    terminal.line("\(terminal.styled(key, .bold))  \(TerminalText.escapedLine(session.title))")
                }
            }
            if sessions.isEmpty, !json { terminal.line(terminal.styled("(no sessions)", .dim)) }
        } catch {
            throw report(error, terminal: terminal)
        }
    }
}

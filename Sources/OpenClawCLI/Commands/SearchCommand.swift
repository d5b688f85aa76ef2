import ArgumentParser
import OpenClawChat
import OpenClawGateway
import OpenClawProtocol
import OpenClawStore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `openclaw-chat search WORDS`: full-text search of the transcripts stored on this machine. Works
/// without a connection; by default within the configured gateway, or across all with `--all-gateways`.
struct SearchCommand: AsyncParsableCommand {
    static let name = "search"
    static let configuration = CommandConfiguration(
        commandName: name,
        _superCommandName: OpenClawChatCommand.name,
        abstract: "Search the stored transcripts (offline; best matches first)."
    )

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Search the transcripts of every gateway, not only the configured one.") var allGateways = false
    @Option(help: "Most results to show.") var limit = 20
    @Flag(help: "One JSON object per result.") var json = false
    @Argument(help: "Words to find (all of them must match; the last may be a prefix).") var words: [String]

    func run() async throws {
        let terminal = Terminal()
        let query = words.joined(separator: " ")
        var gateway: String?
        if !allGateways {
            do {
                gateway = try global.resolveGateway()?.url.storageIdentity
            } catch {
                throw report(error, terminal: terminal)
            }
        }
        let state = global.state
        let limit = max(1, self.limit)
        let hits: [SearchHit]
        if let found = StoredTranscriptSearch.hits(
            path: state.databaseFile, query: query, gateway: gateway, limit: limit)
        {
            hits = found
        } else {
            // Missing, damaged or older than this version: the usual open creates, recovers or migrates it.
            let store = LocalStore.open(state, terminal: terminal, logger: global.makeLogger())
            do {
                hits = try await store.search(query, gateway: gateway, limit: limit)
            } catch {
                terminal.error("The search failed: \(error).", hint: nil)
                throw ExitCode(ExitStatus.usage)
            }
        }
        terminal.buffered { terminal in
            if json {
                for hit in hits { terminal.line(JSONSerializer.string(SearchOutput.json(hit))) }
            } else {
                SearchOutput.print(hits, terminal: terminal, showGateway: gateway == nil)
            }
        }
    }
}

/// How search results look in the terminal and as JSON.
enum SearchOutput {
    static func print(_ hits: [SearchHit], terminal: Terminal, showGateway: Bool) {
        guard !hits.isEmpty else {
            terminal.line(terminal.styled("no stored message matches", .dim))
            return
        }
        for hit in hits {
            terminal.line(terminal.styled(header(hit, showGateway: showGateway), .dim))
            terminal.line("  " + snippet(hit, terminal: terminal))
        }
    }

    /// Where and when the hit was said, and by whom: `main · 2026-11-21 09:30 · assistant`. A role the
    /// gateway invented is stored as it came, so it is escaped like the gateway's name.
    static func header(_ hit: SearchHit, showGateway: Bool) -> String {
        let session = SessionName.display(hit.sessionKey)
        let place = showGateway ? "\(TerminalText.escapedLine(hit.gateway)) · \(session)" : session
        let when = hit.timestampMs.map { " · \(localTime(ms: $0))" } ?? ""
        return "\(place)\(when) · \(TerminalText.escapedLine(hit.role.wireValue))"
    }

    /// Matches in reverse video on a colour terminal; in `[` `]` when piped or with NO_COLOR.
    static func snippet(_ hit: SearchHit, terminal: Terminal) -> String {
        hit.parts.map { part in
            let text = TerminalText.escapedLine(part.text)
            guard part.isMatch else { return text }
            return terminal.colors ? terminal.styled(text, .reverse) : "[\(text)]"
        }.joined()
    }

    /// `2026-11-21 09:30`, in the local time zone.
    static func localTime(ms: Int) -> String { LocalTimeText.dateTime(ms: ms) }

    static func json(_ hit: SearchHit) -> JSONValue {
        var object: JSONObject = [
            "gateway": .string(hit.gateway), "sessionKey": .string(hit.sessionKey), "messageId": .string(hit.messageId),
            "role": .string(hit.role.wireValue), "snippet": .string(hit.snippet),
        ]
        if let timestamp = hit.timestampMs { object["timestamp"] = .int(timestamp) }
        return .object(object)
    }
}

import OpenClawProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How the gateway reads the text of a `chat.send`: the sanitising it stores, and the stop phrases
/// that abort the session's runs instead of starting one.
enum ChatCommandText {
    /// The message as the gateway stores it: NFC-normalised, control characters other than tab, LF and
    /// CR removed. (Upstream `sanitizeChatSendMessageInput` in `src/gateway/server-methods/chat.ts`; a
    /// NUL byte is refused before this.)
    static func sanitized(_ message: String) -> String {
        let kept = message.canonicallyComposed.unicodeScalars.filter { scalar in
            scalar == "\t" || scalar == "\n" || scalar == "\r" || !(scalar.value < 0x20 || scalar.value == 0x7F)
        }
        return String(String.UnicodeScalarView(kept))
    }

    /// Whether the message is a stop command: `/stop`, or one of the plain-language stop phrases,
    /// compared case-insensitively with runs of whitespace folded, curly apostrophes straightened and
    /// trailing punctuation dropped. (Upstream `isChatStopCommandText` → `isAbortRequestText` and
    /// `ABORT_TRIGGERS` in `src/auto-reply/reply/abort-primitives.ts`; the list is upstream's.)
    static func isStopCommand(_ message: String) -> Bool {
        let normalized = normalizedTrigger(message)
        return normalized == "/stop" || stopPhrases.contains(normalized)
    }

    /// `/new` and `/reset`, alone or followed by words (upstream's reset triggers, case-insensitive): the
    /// session starts afresh and the run goes on with the rest.
    static func isResetCommand(_ message: String) -> Bool {
        let first = message.split(whereSeparator: \.isWhitespace).first.map { $0.lowercased() }
        return first == "/new" || first == "/reset"
    }

    private static func normalizedTrigger(_ text: String) -> String {
        var lowered = text.lowercased().replacing("’", with: "'").replacing("`", with: "'")
        lowered = lowered.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let trailing: Set<Character> = [
            ".", "!", "?", "…", ",", "，", "。", ";", "；", ":", "：", "'", "\"", "’", "”", ")", "]", "}",
        ]
        while let last = lowered.last, trailing.contains(last) { lowered.removeLast() }
        return lowered.trimming(.whitespaces)
    }

    static let stopPhrases: Set<String> = [
        "stop", "esc", "abort", "wait", "exit", "interrupt", "detente", "deten", "detén", "para", "no lo hagas",
        "no hagas eso", "detenlo", "no hagas nada", "cancela", "basta", "no sigas", "deja eso", "alto", "corta",
        "abortar", "arrete", "arrête", "abandonner", "interrompre", "停止", "やめて", "止めて", "रुको", "रुकिए",
        "बंद करो", "खत्म करो", "बाहर निकलें", "निरस्त करें", "توقف", "قف", "إلغاء", "خروج", "стоп", "остановись",
        "останови", "остановить", "прекрати", "halt", "anhalten", "aufhören", "hoer auf", "stopp", "pare",
        "stop openclaw", "openclaw stop", "stop action", "stop current action", "stop run", "stop current run",
        "stop agent", "stop the agent", "stop don't do anything", "stop dont do anything",
        "stop do not do anything", "stop doing anything", "do not do that", "please stop", "stop please", "cancel",
    ]
}

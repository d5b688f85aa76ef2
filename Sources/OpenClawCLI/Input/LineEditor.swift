/// The interactive chat's input line as a value: the text being written, the cursor, and the history of
/// what was sent. Every key's effect is decided here, without a terminal, so it is unit-tested;
/// ``TerminalLineInput`` only feeds it keys and draws it.
struct LineEditor: Equatable {
    /// What a key asks the caller to do.
    enum Action: Equatable {
        /// Nothing visible changed.
        case none
        /// The line changed: draw it again.
        case redraw
        /// Enter: send this text (the line is cleared and the text added to the history).
        case submit(String)
        /// Ctrl+C.
        case interrupt
        /// Ctrl+D on an empty line.
        case endOfInput
        /// Esc: stop the running reply (the line is kept).
        case escape
        case clearScreen
    }

    /// The text, as characters, so the cursor never splits one.
    private(set) var characters: [Character] = []
    /// Index in ``characters`` the next key inserts at (0...count).
    private(set) var cursor = 0
    /// What was sent, oldest first.
    private(set) var history: [String]
    /// Where ↑/↓ are in ``history``: nil while editing a new line.
    private var historyIndex: Int?
    /// The line being written before ↑ was pressed, given back by ↓ at the bottom.
    private var draft: [Character] = []
    let historyLimit: Int
    /// Ctrl-R's search while it lasts: the line shows the newest entry that contains the query.
    private(set) var search: HistorySearch?

    struct HistorySearch: Equatable {
        var query = ""
        /// The entry shown, an index in ``history``; nil before the first match or when none matches.
        var match: Int?
        /// The line and cursor before the search, given back by Esc or Ctrl-G.
        var original: [Character]
        var originalCursor: Int
    }

    /// What goes before the line while searching, instead of the prompt.
    var searchPrompt: String? {
        guard let search else { return nil }
        let failed = search.match == nil && !search.query.isEmpty
        // At most 30 cells of the query (wide characters take two), its end kept.
        var query = ""
        var cells = 0
        for character in search.query.reversed() {
            cells += DisplayWidth.of(character)
            if cells > 30 {
                query = "…" + query
                break
            }
            query = String(character) + query
        }
        return "(\(failed ? "no match" : "history search")) '\(query)': "
    }

    init(history: [String] = [], historyLimit: Int = 500) {
        self.historyLimit = historyLimit
        self.history = Array(history.suffix(historyLimit))
    }

    var text: String { String(characters) }
    var isEmpty: Bool { characters.isEmpty }

    mutating func handle(_ key: EditorKey) -> Action {
        if search != nil, let action = handleSearch(key) { return action }
        switch key {
        case .text(let text), .paste(let text):
            insert(text)
            return .redraw
        case .newline:
            insert("\n")
            return .redraw
        case .enter:
            let text = self.text
            characters = []
            cursor = 0
            historyIndex = nil
            draft = []
            remember(text)
            return .submit(text)
        case .backspace:
            guard cursor > 0 else { return .none }
            characters.remove(at: cursor - 1)
            cursor -= 1
        case .delete:
            guard cursor < characters.count else { return .none }
            characters.remove(at: cursor)
        case .endOfInput:
            if characters.isEmpty { return .endOfInput }
            guard cursor < characters.count else { return .none }
            characters.remove(at: cursor)
        case .left:
            guard cursor > 0 else { return .none }
            cursor -= 1
        case .right:
            guard cursor < characters.count else { return .none }
            cursor += 1
        case .home: cursor = lineStart(before: cursor)
        case .end: cursor = lineEnd(after: cursor)
        case .wordLeft: cursor = wordStart(before: cursor)
        case .wordRight: cursor = wordEnd(after: cursor)
        case .deleteWordBackward:
            let start = wordStart(before: cursor)
            characters.removeSubrange(start..<cursor)
            cursor = start
        case .deleteWordForward:
            characters.removeSubrange(cursor..<wordEnd(after: cursor))
        case .deleteToStart:
            characters.removeSubrange(0..<cursor)
            cursor = 0
        case .deleteToEnd:
            characters.removeSubrange(cursor..<characters.count)
        case .up: return recall(older: true)
        case .down: return recall(older: false)
        case .interrupt: return .interrupt
        case .escape: return .escape
        case .clearScreen: return .clearScreen
        case .reverseSearch:
            search = HistorySearch(original: characters, originalCursor: cursor)
        case .tab, .cancel, .ignored: return .none
        }
        return .redraw
    }

    /// Tab's result: the completed word in place, the cursor after it.
    mutating func apply(_ completion: InputCompletion) {
        let range = completion.replaced.clamped(to: 0..<characters.count + 1)
        let upper = min(range.upperBound, characters.count)
        characters.replaceSubrange(range.lowerBound..<upper, with: Array(completion.insertion))
        cursor = range.lowerBound + completion.insertion.count
    }

    /// A key while searching: the query grows or shrinks, Ctrl-R goes to an older match, Esc or Ctrl-G
    /// gives the line back; any other key keeps the match as the line and does what it does (Enter sends
    /// it). Nil for those, after the search has ended.
    private mutating func handleSearch(_ key: EditorKey) -> Action? {
        guard var current = search else { return nil }
        switch key {
        case .text(let text), .paste(let text):
            current.query += text
            current.match = newestMatch(for: current.query, below: (current.match ?? history.count) + 1)
        case .backspace:
            guard !current.query.isEmpty else { return Action.none }
            current.query.removeLast()
            current.match = current.query.isEmpty ? nil : newestMatch(for: current.query, below: history.count)
        case .reverseSearch:
            guard !current.query.isEmpty else { return Action.none }
            if let older = newestMatch(for: current.query, below: current.match ?? history.count) {
                current.match = older
            }
        case .escape, .cancel, .interrupt:
            characters = current.original
            cursor = current.originalCursor
            search = nil
            return .redraw
        default:
            search = nil
            return nil
        }
        search = current
        if let match = current.match {
            characters = Array(history[match])
            cursor = characters.count
        }
        return .redraw
    }

    /// The newest entry before index `limit` that contains `query`.
    private func newestMatch(for query: String, below limit: Int) -> Int? {
        guard !query.isEmpty else { return nil }
        let lowered = query.lowercased()
        return history.indices.prefix(min(limit, history.count)).last { history[$0].lowercased().contains(lowered) }
    }

    /// Replaces the whole line (text from `$EDITOR`), cursor at the end.
    mutating func replace(with text: String) {
        characters = Array(text)
        cursor = characters.count
    }

    private mutating func insert(_ text: String) {
        let inserted = Array(text)
        characters.insert(contentsOf: inserted, at: cursor)
        cursor += inserted.count
    }

    private mutating func remember(_ text: String) {
        guard !text.allSatisfy(\.isWhitespace), history.last != text, !Self.staysOutOfHistory(text) else { return }
        history.append(text)
        if history.count > historyLimit { history.removeFirst(history.count - historyLimit) }
    }

    /// An answer to the agent's question may be a secret it asked for (`isSecret`): never kept, so it is
    /// neither recalled nor written to the history file.
    static func staysOutOfHistory(_ text: String) -> Bool {
        let command = text.drop { $0 == " " }
        return command == "/answer" || command.hasPrefix("/answer ")
    }

    /// ↑ shows the previous entry (the line being written is kept as the draft); ↓ the next one, then
    /// the draft again.
    private mutating func recall(older: Bool) -> Action {
        if older {
            guard !history.isEmpty else { return .none }
            let index: Int
            if let current = historyIndex {
                guard current > 0 else { return .none }
                index = current - 1
            } else {
                draft = characters
                index = history.count - 1
            }
            historyIndex = index
            characters = Array(history[index])
        } else {
            guard let current = historyIndex else { return .none }
            if current + 1 < history.count {
                historyIndex = current + 1
                characters = Array(history[current + 1])
            } else {
                historyIndex = nil
                characters = draft
            }
        }
        cursor = characters.count
        return .redraw
    }

    private func lineStart(before index: Int) -> Int {
        var position = index
        while position > 0, characters[position - 1] != "\n" { position -= 1 }
        return position
    }

    private func lineEnd(after index: Int) -> Int {
        var position = index
        while position < characters.count, characters[position] != "\n" { position += 1 }
        return position
    }

    /// The start of the word before `index`: back over separators, then over the word.
    private func wordStart(before index: Int) -> Int {
        var position = index
        while position > 0, !Self.isWordCharacter(characters[position - 1]) { position -= 1 }
        while position > 0, Self.isWordCharacter(characters[position - 1]) { position -= 1 }
        return position
    }

    /// The end of the word after `index`: over separators, then over the word.
    private func wordEnd(after index: Int) -> Int {
        var position = index
        while position < characters.count, !Self.isWordCharacter(characters[position]) { position += 1 }
        while position < characters.count, Self.isWordCharacter(characters[position]) { position += 1 }
        return position
    }

    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }
}

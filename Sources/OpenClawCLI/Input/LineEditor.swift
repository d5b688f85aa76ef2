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

    init(history: [String] = [], historyLimit: Int = 500) {
        self.historyLimit = historyLimit
        self.history = Array(history.suffix(historyLimit))
    }

    var text: String { String(characters) }
    var isEmpty: Bool { characters.isEmpty }

    mutating func handle(_ key: EditorKey) -> Action {
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
        case .ignored: return .none
        }
        return .redraw
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
        guard !text.allSatisfy(\.isWhitespace), history.last != text else { return }
        history.append(text)
        if history.count > historyLimit { history.removeFirst(history.count - historyLimit) }
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

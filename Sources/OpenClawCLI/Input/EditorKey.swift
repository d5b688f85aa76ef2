/// A key (or a paste) as the line editor sees it, decoded from the terminal's bytes by ``KeyDecoder``.
enum EditorKey: Equatable, Sendable {
    /// Printable text typed (one character, or several when the terminal sends them at once).
    case text(String)
    /// A bracketed paste: inserted as it is, line breaks included, never submitted by itself.
    case paste(String)
    case enter
    /// Ctrl+J (or Alt+Enter): a line break inside the message.
    case newline
    case backspace
    case delete
    case left, right, up, down
    case home, end
    case wordLeft, wordRight
    /// Alt+Backspace / Ctrl+W: the word before the cursor.
    case deleteWordBackward
    /// Alt+D: the word after the cursor.
    case deleteWordForward
    /// Ctrl+U: from the start of the line to the cursor.
    case deleteToStart
    /// Ctrl+K: from the cursor to the end.
    case deleteToEnd
    /// Ctrl+C.
    case interrupt
    /// Ctrl+D: end of input on an empty line, delete under the cursor otherwise.
    case endOfInput
    /// Esc alone.
    case escape
    /// Ctrl+L.
    case clearScreen
    /// Tab: complete the word before the cursor (``InputCompletion``).
    case tab
    /// Ctrl+R: search the input history, newest first.
    case reverseSearch
    /// Ctrl+G: leave the history search, the line as it was.
    case cancel
    /// A key with no meaning here (F-keys, unknown sequences).
    case ignored
}

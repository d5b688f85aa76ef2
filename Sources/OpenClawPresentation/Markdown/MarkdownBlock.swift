/// One block of an assistant message, as the chat bubble lays it out.
///
/// Only the block structure is parsed here (it decides the layout: a code block scrolls sideways, a
/// table is monospaced); the inline styling of each block's text (bold, italic, code spans, links) is
/// left to `AttributedString(markdown:)` on iOS, which Foundation on Linux does not have.
public indirect enum MarkdownBlock: Sendable, Hashable {
    /// `#` … `######`, or a setext heading (`===` / `---` under a line).
    case heading(level: Int, text: String)
    /// Consecutive lines, joined with their line breaks kept (chat text uses single newlines on purpose).
    case paragraph(String)
    case bulletList([MarkdownListItem])
    case numberedList([MarkdownListItem])
    /// A fenced block; `language` is the first word of the info string. An unclosed fence (a reply
    /// still streaming) runs to the end of the text.
    case codeBlock(language: String?, code: String)
    case table(MarkdownTable)
    /// `>` lines, parsed as blocks of their own.
    case quote([MarkdownBlock])
    /// `---`, `***` or `___`.
    case rule
}

/// One item of a list. Nested items are flattened into the list with their ``level``, which is all a
/// chat bubble needs to indent them.
public struct MarkdownListItem: Sendable, Hashable {
    public var text: String
    /// 0 for top-level items, 1 for items nested once …
    public var level: Int
    /// The item's number in an ordered list (renumbered from the first, as Markdown does); nil for bullets.
    public var number: Int?
    /// `- [ ]` / `- [x]` task items; nil for ordinary items.
    public var isChecked: Bool?

    public init(text: String, level: Int = 0, number: Int? = nil, isChecked: Bool? = nil) {
        self.text = text
        self.level = level
        self.number = number
        self.isChecked = isChecked
    }

    /// What goes before the text: `3.` for a numbered item, a bullet that changes with the level.
    /// Task items show a checkbox instead.
    public var marker: String {
        if let number { return "\(number)." }
        return ["•", "◦", "▪"][level % 3]
    }
}

import OpenClawAppModel
import OpenClawPresentation
import SwiftUI
import UIKit

/// Lays out the blocks of a reply: headings, paragraphs and list items with inline styling, code and
/// tables monospaced and scrolling sideways, quotes with a bar.
struct MarkdownView: View {
    let blocks: [MarkdownBlock]

    var body: some View {
        VStack(alignment: .leading, spacing: 8) {
            ForEach(Array(blocks.enumerated()), id: \.offset) { _, block in
                MarkdownBlockView(block: block)
            }
        }
    }
}

private struct MarkdownBlockView: View {
    let block: MarkdownBlock

    var body: some View {
        switch block {
        case .heading(let level, let text):
            InlineMarkdownText(text)
                .font(level == 1 ? .title2.bold() : level == 2 ? .title3.bold() : .headline)
        case .paragraph(let text):
            InlineMarkdownText(text)
        case .bulletList(let items), .numberedList(let items):
            VStack(alignment: .leading, spacing: 4) {
                ForEach(Array(items.enumerated()), id: \.offset) { _, item in
                    ListItemView(item: item)
                }
            }
        case .codeBlock(let language, let code):
            CodeBlockView(language: language, code: code)
        case .table(let table):
            ScrollView(.horizontal) {
                Text(table.monospacedText)
                    .font(.system(.footnote, design: .monospaced))
                    .textSelection(.enabled)
                    .fixedSize(horizontal: true, vertical: false)
                    .padding(8)
            }
            .background(Color(uiColor: .tertiarySystemBackground), in: RoundedRectangle(cornerRadius: 8))
        case .quote(let blocks):
            HStack(alignment: .top, spacing: 8) {
                RoundedRectangle(cornerRadius: 1.5).fill(.secondary).frame(width: 3)
                // A quote holds blocks: the recursion goes through a type-erased view.
                AnyView(MarkdownView(blocks: blocks))
                    .foregroundStyle(.secondary)
            }
        case .rule:
            Divider()
        }
    }
}

private struct ListItemView: View {
    let item: MarkdownListItem

    var body: some View {
        HStack(alignment: .firstTextBaseline, spacing: 6) {
            if let checked = item.isChecked {
                Image(systemName: checked ? "checkmark.square" : "square")
            } else {
                Text(item.marker).monospacedDigit().foregroundStyle(.secondary)
            }
            InlineMarkdownText(item.text)
        }
        .padding(.leading, CGFloat(item.level) * 16)
    }
}

private struct CodeBlockView: View {
    let language: String?
    let code: String

    var body: some View {
        VStack(alignment: .leading, spacing: 4) {
            HStack {
                Text(language ?? "code").font(.caption2).foregroundStyle(.secondary)
                Spacer()
                Button {
                    UIPasteboard.general.string = code
                } label: {
                    Label("Copy code", systemImage: "doc.on.doc").labelStyle(.iconOnly)
                }
                .font(.caption)
                .buttonStyle(.borderless)
            }
            ScrollView(.horizontal) {
                Text(code)
                    .font(.system(.footnote, design: .monospaced))
                    .textSelection(.enabled)
                    .fixedSize(horizontal: true, vertical: false)
            }
        }
        .padding(8)
        .background(Color(uiColor: .tertiarySystemBackground), in: RoundedRectangle(cornerRadius: 8))
    }
}

/// Text with inline Markdown (bold, italic, code spans, links) through Foundation's parser; the
/// block structure was parsed by ``MarkdownParser``. Line breaks are kept as written.
struct InlineMarkdownText: View {
    let markdown: String

    init(_ markdown: String) {
        self.markdown = markdown
    }

    var body: some View {
        Text(attributed).textSelection(.enabled)
    }

    private var attributed: AttributedString {
        let options = AttributedString.MarkdownParsingOptions(
            interpretedSyntax: .inlineOnlyPreservingWhitespace,
            failurePolicy: .returnPartiallyParsedIfPossible
        )
        return (try? AttributedString(markdown: markdown, options: options)) ?? AttributedString(markdown)
    }
}

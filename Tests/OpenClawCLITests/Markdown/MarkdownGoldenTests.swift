import Foundation
import Testing

@testable import OpenClawCLI

/// The terminal rendering of a reply with every kind of block, compared byte for byte with files in
/// `Golden/` (view them with `cat`). `OPENCLAW_UPDATE_GOLDEN=1 swift test --filter MarkdownGolden`
/// rewrites them after a deliberate change; review the diff.
@Suite("Markdown in the terminal: golden files")
struct MarkdownGoldenTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    static func check(_ output: String, against name: String) throws {
        let file = directory.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["OPENCLAW_UPDATE_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(output.utf8).write(to: file)
        }
        let golden = try String(decoding: Data(contentsOf: file), as: UTF8.self)
        #expect(output == golden, "\(name) differs; rendered:\n\(output)")
    }

    @Test(arguments: [80, 40])
    func colour(width: Int) throws {
        let renderer = MarkdownTerminalRenderer(width: width, hyperlinks: false)
        try Self.check(
            MarkdownOutput.render(MarkdownFixture.reply, with: renderer), against: "reply-\(width)-colour.txt")
    }

    @Test func hyperlinksWhereTheTerminalShowsThem() throws {
        let renderer = MarkdownTerminalRenderer(width: 80, hyperlinks: true)
        let output = MarkdownOutput.render(MarkdownFixture.reply, with: renderer)
        try Self.check(output, against: "reply-80-hyperlinks.txt")
        #expect(output.contains("\u{1B}]8;;https://ci.example.com/run/42\u{1B}\\"))
        #expect(!output.contains("(https://ci.example.com/run/42)"))
    }

    @Test(arguments: [80, 40])
    func noRowIsWiderThanTheTerminal(width: Int) {
        let renderer = MarkdownTerminalRenderer(width: width, hyperlinks: false)
        var stream = MarkdownStream(renderer: renderer, showsLiveLine: false)
        let output = stream.append(MarkdownFixture.reply) + stream.finish()
        for row in ScreenModel(output).lines {
            #expect(DisplayWidth.of(ScreenModel.strippingStyles(row)) <= width, "too wide: \(row)")
        }
    }
}

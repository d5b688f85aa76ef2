import OpenClawChat
import OpenClawPresentation
import OpenClawProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `/save N PATH` and `/view N`: a generated image fetched from the gateway (never kept), written to a
/// new file or drawn in the terminal.
extension InteractiveChat {
    func save(_ argument: String) async {
        let words = argument.split(separator: " ", maxSplits: 1).map(String.init)
        guard words.count == 2, let reference = SaveReference(words[0]) else {
            terminal.line("usage: /save N PATH  (N is the number in an image's \"/save N\" line)")
            return
        }
        let path = Self.expandingTilde(words[1].trimming(.whitespaces))
        // Said before fetching: no download for a name that will be refused (the write checks again).
        guard !ImageFileWriter.nameIsTaken(path) else {
            terminal.line("\(path) already exists: not overwritten (choose another name)")
            return
        }
        guard let image = await fetchImage(reference, typed: words[0]) else { return }
        switch ImageFileWriter.writeNew(image.data, to: path) {
        case .written:
            terminal.line("saved image \(words[0]) (\(ByteCountText.text(image.data.count))) to \(path)")
        case .exists:
            terminal.line("\(path) already exists: not overwritten (choose another name)")
        case .failed(let reason):
            terminal.line("could not write \(path): \(reason)")
        }
    }

    /// `/view N`: the image drawn in the terminal, where it speaks an image protocol (kitty, iTerm2).
    func view(_ argument: String) async {
        guard let reference = SaveReference(argument) else {
            terminal.line("usage: /view N  (N is the number in an image's \"/save N\" line)")
            return
        }
        let environment = ProcessEnvironment.current
        guard let imageProtocol = TerminalImageProtocol(environment: environment, stdoutIsTTY: terminal.stdoutIsTTY)
        else {
            terminal.line("this terminal shows no images inline (kitty or iTerm2 does): /save \(argument) PATH")
            return
        }
        guard let image = await fetchImage(reference, typed: argument) else { return }
        guard let escape = imageProtocol.escape(for: image.data) else {
            terminal.line("this terminal cannot show a \(image.mimeType ?? "non-PNG") image: /save \(argument) PATH")
            return
        }
        terminal.write(escape)
    }

    /// The bytes of the image `reference` names, or nil after saying why not.
    private func fetchImage(_ reference: SaveReference, typed: String) async -> ArtifactImage? {
        var images = artifactIds(inMessage: reference.message)
        if reference.ordinal > images.count {
            // A reply that just ended may not be numbered yet: read the page once more.
            await chat.refreshHistoryAndWait()
            images = artifactIds(inMessage: reference.message)
        }
        guard reference.ordinal <= images.count else {
            terminal.line("no generated image \(typed) in this session's loaded history (/history shows them)")
            return nil
        }
        switch await chat.artifactImage(images[reference.ordinal - 1]) {
        case .failure(let error):
            terminal.line(TerminalText.escapedLine(error.description))
            return nil
        case .success(let image):
            return image
        }
    }

    private func artifactIds(inMessage number: Int) -> [String] {
        chat.messages.filter { $0.transcriptSeq == number }.flatMap { $0.attachments.compactMap(\.artifactId) }
    }

    private static func expandingTilde(_ path: String) -> String {
        if path == "~" { return HomeDirectory.path }
        if path.hasPrefix("~/") { return HomeDirectory.path + path.dropFirst() }
        return path
    }
}

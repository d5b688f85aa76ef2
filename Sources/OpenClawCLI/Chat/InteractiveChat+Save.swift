import Foundation
import OpenClawChat
import OpenClawPresentation
import OpenClawProtocol

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `/save N PATH`: a generated image fetched from the gateway and written to a new file.
extension InteractiveChat {
    func save(_ argument: String) async {
        let words = argument.split(separator: " ", maxSplits: 1).map(String.init)
        guard words.count == 2, let reference = SaveReference(words[0]) else {
            terminal.line("usage: /save N PATH  (N is the number in an image's \"/save N\" line)")
            return
        }
        let images = viewModel.messages.filter { $0.transcriptSeq == reference.message }
            .flatMap { entry in entry.attachments.compactMap(\.artifactId) }
        guard reference.ordinal <= images.count else {
            terminal.line("no generated image \(words[0]) in this session's loaded history (/history shows them)")
            return
        }
        let path = Self.expandingTilde(words[1].trimmingCharacters(in: .whitespaces))
        switch await viewModel.artifactImage(images[reference.ordinal - 1]) {
        case .failure(let error):
            terminal.line(TerminalText.escapedLine(error.description))
        case .success(let image):
            switch ImageFileWriter.writeNew(image.data, to: path) {
            case .written:
                terminal.line("saved image \(words[0]) (\(ByteCountText.text(image.data.count))) to \(path)")
            case .exists:
                terminal.line("\(path) already exists: not overwritten (choose another name)")
            case .failed(let reason):
                terminal.line("could not write \(path): \(reason)")
            }
        }
    }

    private static func expandingTilde(_ path: String) -> String {
        if path == "~" { return NSHomeDirectory() }
        if path.hasPrefix("~/") { return NSHomeDirectory() + path.dropFirst() }
        return path
    }
}

/// Writes a file that did not exist: `O_CREAT | O_EXCL` refuses an existing name, a symlink included
/// (so a link planted at the target is never followed), and `O_NOFOLLOW` says so again.
enum ImageFileWriter {
    enum Outcome: Equatable {
        case written
        case exists
        case failed(String)
    }

    static func writeNew(_ data: Data, to path: String) -> Outcome {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            return errno == EEXIST || errno == ELOOP ? .exists : .failed(String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        let failure: String? = data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                guard let base = buffer.baseAddress else { return nil }
                let written = write(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return String(cString: strerror(errno))
                }
                offset += written
            }
            return nil
        }
        return failure.map(Outcome.failed) ?? .written
    }
}

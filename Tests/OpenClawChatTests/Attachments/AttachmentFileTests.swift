import Foundation
import OpenClawChat
import OpenClawProtocol
import Testing

/// `Attachment.file(at:)` reads with POSIX calls; what it says about a file it cannot read is what it said
/// when it read through Foundation's `FileHandle` (the reason is `strerror`'s, lowercased).
@Suite("Attachments from files: size, type and why one cannot be read")
struct AttachmentFileTests {
    @Test("A file gives its size and the type its first bytes say, and only the head is read")
    func aFileGivesItsSizeAndType() throws {
        let path = FileManager.default.temporaryDirectory.appending(path: "attach-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: path) }
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 7, count: 100_000)
        try Data(png).write(to: path)
        let attachment = try Attachment.file(at: path)
        #expect(attachment.size == png.count)
        #expect(attachment.mediaType.mimeType == "image/png")
        #expect(attachment.fileName == path.lastPathComponent)
    }

    @Test("An empty file is an empty attachment, not an error")
    func anEmptyFile() throws {
        let path = FileManager.default.temporaryDirectory.appending(path: "attach-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: path) }
        try Data().write(to: path)
        #expect(try Attachment.file(at: path).size == 0)
    }

    @Test("A missing file and a directory are unreadable, with the system's reason")
    func unreadableFiles() {
        let missing = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/x.txt")
        #expect(throws: AttachmentError.unreadable(fileName: "x.txt", reason: "no such file or directory")) {
            try Attachment.file(at: missing)
        }
        let directory = FileManager.default.temporaryDirectory
        #expect(
            throws: AttachmentError.unreadable(fileName: directory.lastPathComponent, reason: "is a directory")
        ) {
            try Attachment.file(at: directory)
        }
    }
}

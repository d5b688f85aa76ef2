import OpenClawProtocol
import Testing

@Suite("Attachment type detection")
struct MediaTypeTests {
    private func detect(_ bytes: [UInt8], _ name: String = "file") -> String {
        MediaType.detect(prefix: bytes, fileName: name).mimeType
    }

    @Test func imagesByMagicBytesWhateverTheName() {
        #expect(detect([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0], "photo.jpg") == "image/png")
        #expect(detect([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10], "x.png") == "image/jpeg")
        #expect(detect(Array("GIF89a....".utf8)) == "image/gif")
        #expect(detect(Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)) == "image/webp")
        #expect(detect([0, 0, 0, 0x18] + Array("ftypheic\u{0}\u{0}\u{0}\u{0}".utf8)) == "image/heic")
        #expect(detect([0, 0, 0, 0x18] + Array("ftypmif1\u{0}\u{0}\u{0}\u{0}".utf8)) == "image/heif")
    }

    @Test func documentsArchivesAndText() {
        #expect(detect(Array("%PDF-1.7\n%....".utf8), "report") == "application/pdf")
        #expect(detect([0x50, 0x4B, 0x03, 0x04, 0x14, 0], "bundle.zip") == "application/zip")
        #expect(detect([0x50, 0x4B, 0x03, 0x04, 0x14, 0], "letter.docx").hasSuffix("wordprocessingml.document"))
        #expect(detect([0x1F, 0x8B, 0x08, 0]) == "application/gzip")
        #expect(detect([0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C, 0, 4]) == "application/x-7z-compressed")
        #expect(detect(Array("Rar!\u{1A}\u{07}\u{0}".utf8)) == "application/vnd.rar")
        #expect(detect(Array("2026-11-24 error: disk full\n".utf8), "server.log") == "text/plain")
        #expect(detect(Array("# Notes\nÜber alles\n".utf8), "notes.md") == "text/markdown")
        #expect(detect([0x00, 0x01, 0x02, 0xFE, 0xFF]) == "application/octet-stream")
    }

    @Test func textCutInsideACharacterIsStillText() {
        var bytes = Array(repeating: UInt8(ascii: "a"), count: MediaType.sniffLength - 1) + Array("é".utf8)
        #expect(MediaType.detect(prefix: bytes, fileName: "a.txt") == .plainText)
        bytes = Array("abc".utf8) + [0xC3, 0x28]  // invalid sequence, not at the cut
        #expect(MediaType.detect(prefix: bytes, fileName: "a.txt") == .octetStream)
    }

    @Test func kindsAndWireType() {
        #expect(MediaType(mimeType: "Image/PNG; charset=x").mimeType == "image/png")
        #expect(MediaType(mimeType: "image/png").kind == .image)
        #expect(MediaType(mimeType: "image/png").attachmentType == "image")
        #expect(MediaType(mimeType: "application/pdf").attachmentType == "file")
        #expect(MediaType(mimeType: "application/x-7z-compressed").kind == .archive)
    }

    @Test func sizesReadLikeFileManagers() {
        #expect(ByteCountText.text(1) == "1 byte")
        #expect(ByteCountText.text(999) == "999 bytes")
        #expect(ByteCountText.text(1_200_000) == "1.2 MB")
        #expect(ByteCountText.text(5_000_000) == "5 MB")
        #expect(ByteCountText.text(20_971_520) == "21 MB")
        #expect(ByteCountText.text(340_400) == "340.4 kB")
    }
}

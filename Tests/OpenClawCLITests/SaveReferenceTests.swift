import Foundation
import Testing

@testable import OpenClawCLI

@Suite("/save: references and the file writer")
struct SaveReferenceTests {
    @Test func referencesAreMessageAndOrdinal() {
        #expect(SaveReference("7") == SaveReference("7.1"))
        #expect(SaveReference("7.2")?.ordinal == 2)
        #expect(SaveReference("7.2")?.message == 7)
        for bad in ["", "0", "-1", "7.", ".2", "7.0", "a", "7.2.1"] { #expect(SaveReference(bad) == nil, "\(bad)") }
    }

    @Test func theLineNamesTheCommand() {
        #expect(SaveReference.line(message: 4, ordinal: 1) == "🖼 image 4 (artifact) — /save 4 PATH")
        #expect(SaveReference.line(message: 4, ordinal: 2) == "🖼 image 4.2 (artifact) — /save 4.2 PATH")
    }

    @Test func theWriterNeverOverwritesNorFollowsALink() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("writer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let target = directory.appendingPathComponent("a.png").path
        #expect(ImageFileWriter.writeNew(Data([1, 2, 3]), to: target) == .written)
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Data([1, 2, 3]))
        #expect(ImageFileWriter.writeNew(Data([9]), to: target) == .exists)
        let link = directory.appendingPathComponent("link.png").path
        let elsewhere = directory.appendingPathComponent("not-yet").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: elsewhere)
        #expect(ImageFileWriter.writeNew(Data([9]), to: link) == .exists)
        #expect(!FileManager.default.fileExists(atPath: elsewhere), "a dangling link was followed")
        let attributes = try FileManager.default.attributesOfItem(atPath: target)
        #expect((attributes[.posixPermissions] as? Int).map { $0 & 0o022 } == 0)
    }
}

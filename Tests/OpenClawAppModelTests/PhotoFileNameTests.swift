import Foundation
import OpenClawAppModel
import Testing

/// The names picked photos are sent under (the picker gives none), decided here rather than in the view.
@Suite("Picked photo names")
struct PhotoFileNameTests {
    @Test func aPhotoIsNamedByWhenItWasPickedAndItsPosition() {
        let pickedAt = Date(timeIntervalSince1970: 1_764_000_000.75)
        #expect(
            ComposerAttachments.photoFileName(pickedAt: pickedAt, index: 0, fileExtension: "heic")
                == "photo-1764000000-1.heic")
        #expect(
            ComposerAttachments.photoFileName(pickedAt: pickedAt, index: 2, fileExtension: "png")
                == "photo-1764000000-3.png")
    }

    @Test func aTypeWithoutAnExtensionIsSentAsJPEG() {
        let pickedAt = Date(timeIntervalSince1970: 10)
        #expect(ComposerAttachments.photoFileName(pickedAt: pickedAt, index: 0, fileExtension: nil) == "photo-10-1.jpg")
        #expect(ComposerAttachments.photoFileName(pickedAt: pickedAt, index: 1, fileExtension: "") == "photo-10-2.jpg")
    }
}

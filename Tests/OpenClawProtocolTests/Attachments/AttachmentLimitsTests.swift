import OpenClawProtocol
import Testing

@Suite("Attachment limits")
struct AttachmentLimitsTests {
    private func hello(_ version: Int, maxPayload: Int = 26_214_400, advertised: (Int, Int)? = nil) throws -> HelloOk {
        var policy: [String: JSONValue] = ["maxPayload": .int(maxPayload)]
        if let advertised {
            policy["attachments"] = ["maxBytes": .int(advertised.0), "maxImageBytes": .int(advertised.1)]
        }
        return try #require(HelloOk(json: ["type": "hello-ok", "protocol": .int(version), "policy": .object(policy)]))
    }

    private let png = MediaType(mimeType: "image/png")
    private let pdf = MediaType(mimeType: "application/pdf")

    @Test func advertisedLimitsAreUsedUpToWhatTheFrameCarries() throws {
        let limits = AttachmentLimits(hello: try hello(4, advertised: (10_000_000, 3_000_000)))
        #expect(limits.advertised && !limits.imagesOnly)
        #expect(limits.maxBytes == 10_000_000 && limits.maxImageBytes == 3_000_000)
        let roomy = AttachmentLimits(hello: try hello(4, advertised: (50_000_000, 50_000_000)))
        // (25 MiB - 256 KiB) of base64 carries 19,464,192 bytes.
        #expect(roomy.maxBytes == 19_464_192)
        #expect(roomy.maxImageBytes == 19_464_192)
    }

    @Test func v4WithoutAdvertisedLimitsUsesTheOfficialFallbacks() throws {
        let limits = AttachmentLimits(hello: try hello(4, maxPayload: 64 * 1024 * 1024))
        #expect(!limits.advertised)
        #expect(limits.maxBytes == 20 * 1024 * 1024)
        #expect(limits.maxImageBytes == 5_000_000)
    }

    @Test func v3TakesImagesOnlyUpTo5MB() throws {
        let limits = AttachmentLimits(hello: try hello(3))
        #expect(limits.imagesOnly)
        #expect(throws: AttachmentError.unsupportedType(fileName: "a.pdf", mediaType: pdf, reason: .imagesOnly)) {
            try limits.check(fileName: "a.pdf", mediaType: pdf, size: 10)
        }
        try limits.check(fileName: "a.png", mediaType: png, size: 5_000_000)
        #expect(throws: AttachmentError.tooLarge(fileName: "a.png", size: 5_000_001, limit: 5_000_000, kind: .image)) {
            try limits.check(fileName: "a.png", mediaType: png, size: 5_000_001)
        }
    }

    @Test func errorsNameTheFileTheLimitAndTheSize() throws {
        let error = AttachmentError.tooLarge(fileName: "photo.jpg", size: 6_200_000, limit: 5_000_000, kind: .image)
        #expect(error.description == "photo.jpg is 6.2 MB; this gateway accepts images up to 5 MB.")
        let limits = AttachmentLimits(hello: try hello(4))
        #expect(throws: AttachmentError.self) {
            try limits.check(fileName: "x.zip", mediaType: MediaType(mimeType: "application/zip"), size: 10)
        }
        #expect(throws: AttachmentError.empty(fileName: "e.txt")) {
            try limits.check(fileName: "e.txt", mediaType: .plainText, size: 0)
        }
    }
}

import Foundation
import NIOWebSocket
import Testing

@testable import OpenClawGateway

/// Request ids and idempotency keys: version 4 UUIDs in lower case, as upstream's clients send them.
@Suite("Request ids")
struct RequestIDTests {
    @Test func bitsAreFormattedAsAVersion4UUIDWithTheRFCVariant() {
        #expect(RequestID.format(high: 0, low: 0) == "00000000-0000-4000-8000-000000000000")
        #expect(RequestID.format(high: .max, low: .max) == "ffffffff-ffff-4fff-bfff-ffffffffffff")
        #expect(
            RequestID.format(high: 0x0123_4567_89ab_cdef, low: 0xfedc_ba98_7654_3210)
                == "01234567-89ab-4def-bedc-ba9876543210")
    }

    @Test func madeIdsAreDistinctUUIDsThatFoundationReadsBack() {
        let ids = (0..<1_000).map { _ in RequestID.make() }
        #expect(Set(ids).count == ids.count)
        for id in ids.prefix(20) {
            let parsed = UUID(uuidString: id)
            #expect(parsed?.uuidString.lowercased() == id)
            #expect((parsed?.uuid.6 ?? 0) >> 4 == 4, "version 4: \(id)")
        }
    }

    /// The pool hands out each word once across many blocks, and the masks cut from it differ.
    @Test func thePoolsWordsAndMasksDoNotRepeatAcrossBlocks() {
        let words = (0..<10_000).map { _ in SecureRandomPool.next() }
        #expect(Set(words).count == words.count)
        let masks = (0..<1_000).map { _ in MaskKeys.next() }
        // Four random bytes: two of a thousand alike about once in eight thousand runs.
        #expect(Set(masks.map { [$0[0], $0[1], $0[2], $0[3]] }).count >= 998)
    }
}

import Testing

@testable import OpenClawGateway

/// A peer's close reason is shown to the user: trimmed, without control characters, at most the 123 bytes a
/// close frame can carry, and nil when nothing is left.
@Suite("Close reasons made safe to show")
struct CloseReasonTests {
    @Test func whitespaceIsTrimmedAtBothEndsOnly() {
        #expect(DisconnectReason.sanitizedCloseReason("  \t going away  for now \u{3000}") == "going away  for now")
        #expect(DisconnectReason.sanitizedCloseReason("\u{00A0}x") == "x")
        #expect(DisconnectReason.sanitizedCloseReason("restart") == "restart")
    }

    @Test func nothingLeftIsNil() {
        #expect(DisconnectReason.sanitizedCloseReason(nil) == nil)
        #expect(DisconnectReason.sanitizedCloseReason("") == nil)
        #expect(DisconnectReason.sanitizedCloseReason(" \n\t\u{3000} ") == nil)
        #expect(DisconnectReason.sanitizedCloseReason("\u{7}\u{1B}") == nil)
    }

    @Test func controlCharactersGoAndTheLengthIsBounded() {
        #expect(DisconnectReason.sanitizedCloseReason("a\u{1B}[31mb\u{7}") == "a[31mb")
        let long = DisconnectReason.sanitizedCloseReason(String(repeating: "é", count: 100))
        #expect(long?.utf8.count == 122, "61 two-byte characters fit in 123 bytes")
    }
}

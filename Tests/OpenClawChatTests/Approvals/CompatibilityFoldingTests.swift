import Testing

@testable import OpenClawApprovals

/// The table holds what corelibs Foundation's `precomposedStringWithCompatibilityMapping` gave (Swift 6.3.1,
/// Linux) for every scalar whose compatibility form is printable ASCII.
@Suite("Compatibility folding to ASCII, without Foundation")
struct CompatibilityFoldingTests {
    @Test(
        "Fullwidth, mathematical, superscript, circled and ligature forms fold as NFKC folds them",
        arguments: [
            ("\u{FF52}", "r"), ("\u{FF01}", "!"), ("\u{FF5E}", "~"), ("\u{1D400}", "A"), ("\u{1D419}", "Z"),
            ("\u{1D7CE}", "0"), ("\u{B2}", "2"), ("\u{2460}", "1"), ("\u{2474}", "(1)"), ("\u{FB01}", "fi"),
            ("\u{FB03}", "ffi"), ("\u{2122}", "TM"), ("\u{2026}", "..."), ("\u{2163}", "IV"),
        ] as [(Unicode.Scalar, String)])
    func folds(scalar: Unicode.Scalar, ascii: String) {
        #expect(CompatibilityFolding.asciiFolding(of: scalar) == ascii)
    }

    @Test(
        "Scalars whose compatibility form is not printable ASCII do not fold",
        arguments: ["a", "\u{E9}", "\u{3000}", "\u{2103}", "\u{0430}", "\u{1F600}"] as [Unicode.Scalar])
    func doesNotFold(scalar: Unicode.Scalar) {
        #expect(CompatibilityFolding.asciiFolding(of: scalar) == nil)
    }
}

/// The few text operations the client used from swift-corelibs-foundation, in plain standard-library code.
///
/// Any use of corelibs' string API (`trimmingCharacters(in:)`, `String(format:)`, `padding(toLength:)`…)
/// links CoreFoundation and ICU's data into `openclaw-chat` (about 45 MB of its size), so the client's
/// modules import FoundationEssentials only and use these instead. Each one keeps the exact behaviour of
/// the call it replaces (which characters count as whitespace, how `%.2f` rounds), checked against
/// corelibs Foundation when it was written.
package enum EssentialsText {
    /// `String(format: "%.<digits>f", value)`: the value rounded to `digits` decimals the way C's `printf`
    /// does, from its exact binary value (so `2.675` gives `2.67` and `0.15` gives `0.1`, ties to even),
    /// with `nan`, `-nan`, `inf` and `-inf` as `printf` writes them and the sign of negative zero kept.
    package static func fixed(_ value: Double, digits: Int) -> String {
        precondition(digits >= 0, "a negative number of decimals")
        if value.isNaN { return value.sign == .minus ? "-nan" : "nan" }
        if value.isInfinite { return value.sign == .minus ? "-inf" : "inf" }
        let sign = value.sign == .minus ? "-" : ""
        let bits = value.magnitude
        // magnitude == significand × 2^exponent exactly.
        let significand: UInt64
        let exponent: Int
        if bits.exponentBitPattern == 0 {
            significand = bits.significandBitPattern
            exponent = -1074
        } else {
            significand = bits.significandBitPattern | (1 << 52)
            exponent = Int(bits.exponentBitPattern) - 1075
        }
        var scaled = WideUInt(significand)
        for _ in 0..<digits { scaled.multiply(by: 10) }
        if exponent >= 0 {
            scaled.shiftLeft(by: exponent)
        } else {
            scaled = scaled.shiftedRightRoundingToEven(by: -exponent)
        }
        var text = scaled.decimal()
        if text.count <= digits { text = String(repeating: "0", count: digits + 1 - text.count) + text }
        guard digits > 0 else { return sign + text }
        let point = text.index(text.endIndex, offsetBy: -digits)
        return sign + text[..<point] + "." + text[point...]
    }
}

extension String {
    /// `precomposedStringWithCanonicalMapping`: the text in Unicode Normalization Form C, as the standard
    /// library composes it for its own comparisons.
    package var canonicallyComposed: String { String(decoding: _nfcCodeUnits, as: UTF8.self) }
}

/// An unsigned integer of any width (32-bit limbs, least significant first): just what `fixed` needs.
private struct WideUInt {
    var limbs: [UInt32]

    init(_ value: UInt64) { limbs = [UInt32(truncatingIfNeeded: value), UInt32(truncatingIfNeeded: value >> 32)] }

    var isZero: Bool { limbs.allSatisfy { $0 == 0 } }

    mutating func multiply(by factor: UInt32) {
        var carry: UInt64 = 0
        for index in limbs.indices {
            let product = UInt64(limbs[index]) * UInt64(factor) + carry
            limbs[index] = UInt32(truncatingIfNeeded: product)
            carry = product >> 32
        }
        if carry != 0 { limbs.append(UInt32(carry)) }
    }

    mutating func shiftLeft(by count: Int) {
        for _ in 0..<(count / 31) { multiply(by: 1 << 31) }
        multiply(by: 1 << UInt32(count % 31))
    }

    func bit(_ position: Int) -> Bool {
        let limb = position / 32
        return limb < limbs.count && (limbs[limb] >> UInt32(position % 32)) & 1 == 1
    }

    func anyBit(below position: Int) -> Bool {
        (0..<min(position, limbs.count * 32)).contains { bit($0) }
    }

    /// `self / 2^count`, rounded to nearest, ties to even (what `printf` does in the default rounding mode).
    func shiftedRightRoundingToEven(by count: Int) -> WideUInt {
        var quotient = WideUInt(0)
        quotient.limbs = []
        var position = count
        while position < limbs.count * 32 {
            var limb: UInt32 = 0
            for offset in 0..<32 where bit(position + offset) { limb |= 1 << UInt32(offset) }
            quotient.limbs.append(limb)
            position += 32
        }
        if quotient.limbs.isEmpty { quotient.limbs = [0] }
        let half = bit(count - 1)
        if half && (anyBit(below: count - 1) || quotient.limbs[0] & 1 == 1) { quotient.addOne() }
        return quotient
    }

    mutating func addOne() {
        for index in limbs.indices {
            limbs[index] &+= 1
            if limbs[index] != 0 { return }
        }
        limbs.append(1)
    }

    /// Divides in place, returning the remainder.
    mutating func divide(by divisor: UInt32) -> UInt32 {
        var remainder: UInt64 = 0
        for index in limbs.indices.reversed() {
            let current = (remainder << 32) | UInt64(limbs[index])
            limbs[index] = UInt32(current / UInt64(divisor))
            remainder = current % UInt64(divisor)
        }
        return UInt32(remainder)
    }

    func decimal() -> String {
        var value = self
        var chunks: [UInt32] = []
        repeat { chunks.append(value.divide(by: 1_000_000_000)) } while !value.isZero
        var text = String(chunks.removeLast())
        for chunk in chunks.reversed() {
            let digits = String(chunk)
            text += String(repeating: "0", count: 9 - digits.count) + digits
        }
        return text
    }
}

/// The scalars Foundation's `CharacterSet` presets hold, for trimming with the same result.
package enum TrimmedScalars: Sendable {
    /// `CharacterSet.whitespaces`: Unicode's space separators (U+0020, U+00A0, U+3000…), the tab, and
    /// U+200B ZERO WIDTH SPACE (which corelibs' set holds); not line breaks.
    case whitespaces
    /// `CharacterSet.whitespacesAndNewlines`: the above, U+000A to U+000D, U+0085, U+2028 and U+2029.
    case whitespacesAndNewlines
    /// `CharacterSet(charactersIn:)`: exactly the scalars of the string.
    case scalars(String)

    package func contains(_ scalar: Unicode.Scalar) -> Bool {
        switch self {
        case .whitespaces: Self.isWhitespace(scalar)
        case .whitespacesAndNewlines: Self.isWhitespace(scalar) || Self.isNewline(scalar)
        case .scalars(let set): set.unicodeScalars.contains(scalar)
        }
    }

    private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\t" || scalar == "\u{200B}" || scalar.properties.generalCategory == .spaceSeparator
    }

    private static func isNewline(_ scalar: Unicode.Scalar) -> Bool {
        ("\u{0A}"..."\u{0D}").contains(scalar) || scalar == "\u{85}" || scalar == "\u{2028}" || scalar == "\u{2029}"
    }
}

extension StringProtocol {
    /// `trimmingCharacters(in:)`: drops the set's scalars from both ends. By scalar, as Foundation does, so
    /// a combining mark after a trimmed space is kept on its own.
    package func trimming(_ set: TrimmedScalars) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !set.contains($0) }),
            let last = scalars.lastIndex(where: { !set.contains($0) })
        else { return "" }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: scalars[first...last])
        return String(kept)
    }

    /// `padding(toLength:withPad: " ", startingAt: 0)`: spaces added, or the text cut, to `length` UTF-16
    /// code units (NSString's length, which is what columns were lined up by).
    package func padded(toUTF16Length length: Int) -> String {
        let count = utf16.count
        if count >= length { return String(decoding: Array(utf16.prefix(length)), as: UTF16.self) }
        return String(self) + String(repeating: " ", count: length - count)
    }

    /// `range(of:options: .backwards)`: the last place `needle` starts, overlapping matches included.
    package func lastRange(of needle: some StringProtocol) -> Range<Index>? {
        guard !needle.isEmpty else { return nil }
        var start = endIndex
        while start > startIndex {
            formIndex(before: &start)
            let tail = self[start...]
            if tail.starts(with: needle) { return start..<index(start, offsetBy: needle.count) }
        }
        return nil
    }

    /// `range(of:options: .caseInsensitive)`: the first place `needle` starts, characters compared by
    /// their lowercase forms.
    package func firstRange(caseInsensitive needle: some StringProtocol) -> Range<Index>? {
        guard !needle.isEmpty else { return nil }
        let wanted = needle.map { $0.lowercased() }
        var start = startIndex
        while start < endIndex {
            if self[start...].lazy.map({ $0.lowercased() }).starts(with: wanted) {
                return start..<index(start, offsetBy: wanted.count)
            }
            formIndex(after: &start)
        }
        return nil
    }

    /// `commonPrefix(with:options:)`: the longest start of this text that `other` also starts with,
    /// characters compared by their lowercase forms when `caseInsensitive`.
    package func commonPrefix(with other: some StringProtocol, caseInsensitive: Bool) -> String {
        var result = ""
        for (mine, theirs) in zip(self, other) {
            guard caseInsensitive ? mine.lowercased() == theirs.lowercased() : mine == theirs else { break }
            result.append(mine)
        }
        return result
    }

    /// `addingPercentEncoding(withAllowedCharacters: .alphanumerics)` as corelibs does it: ASCII letters and
    /// digits kept, every other scalar as `%XX` escapes of its UTF-8 bytes (non-ASCII letters too: the
    /// set is checked byte by byte).
    package func percentEncodingAllButAlphanumerics() -> String {
        var out = ""
        for scalar in unicodeScalars {
            if ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) {
                out.unicodeScalars.append(scalar)
                continue
            }
            for byte in String(scalar).utf8 {
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }
}

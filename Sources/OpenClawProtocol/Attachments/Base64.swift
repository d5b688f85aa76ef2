/// Standard base64 (RFC 4648 §4, padded), written straight into a destination buffer.
///
/// Foundation's encoder returns a new `String` or `Data`; the frame would then need that copy plus
/// the frame itself. Encoding chunk by chunk into the frame's own buffer keeps one copy of the encoded
/// bytes in memory, however large the file.
public enum Base64 {
    static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The encoded length of `count` bytes, padding included.
    public static func encodedCount(_ count: Int) -> Int { (count + 2) / 3 * 4 }

    /// The decoded length of a padded encoding of `encodedCount` characters ending in `padding` `=`.
    public static func decodedCount(encodedCount: Int, padding: Int) -> Int { encodedCount / 4 * 3 - padding }

    /// Encodes `source` into `destination` (at least ``encodedCount(_:)`` bytes) and returns the number
    /// of bytes written. Only the last chunk of a stream may have a length that is not a multiple of 3.
    @discardableResult
    public static func encode(_ source: UnsafeRawBufferPointer, into destination: UnsafeMutableRawBufferPointer) -> Int
    {
        let count = source.count
        precondition(destination.count >= encodedCount(count), "base64 destination too small")
        var input = 0
        var output = 0
        alphabet.withUnsafeBufferPointer { table in
            while input + 3 <= count {
                let value = UInt32(source[input]) << 16 | UInt32(source[input + 1]) << 8 | UInt32(source[input + 2])
                destination[output] = table[Int(value >> 18 & 0x3F)]
                destination[output + 1] = table[Int(value >> 12 & 0x3F)]
                destination[output + 2] = table[Int(value >> 6 & 0x3F)]
                destination[output + 3] = table[Int(value & 0x3F)]
                input += 3
                output += 4
            }
            let rest = count - input
            guard rest > 0 else { return }
            let value = UInt32(source[input]) << 16 | (rest == 2 ? UInt32(source[input + 1]) << 8 : 0)
            destination[output] = table[Int(value >> 18 & 0x3F)]
            destination[output + 1] = table[Int(value >> 12 & 0x3F)]
            destination[output + 2] = rest == 2 ? table[Int(value >> 6 & 0x3F)] : UInt8(ascii: "=")
            destination[output + 3] = UInt8(ascii: "=")
            output += 4
        }
        return output
    }

    /// Encodes a whole byte sequence (tests and small payloads).
    public static func encode(_ bytes: [UInt8]) -> String {
        let size = encodedCount(bytes.count)
        return bytes.withUnsafeBytes { source in
            String(unsafeUninitializedCapacity: size) { buffer in
                encode(source, into: UnsafeMutableRawBufferPointer(buffer))
            }
        }
    }

    /// Decodes the way gateways validate (upstream `isValidBase64`): non-empty, a multiple of 4
    /// characters, only `A–Z a–z 0–9 + /`, at most two `=` and only at the end. Nil for anything else —
    /// no whitespace, no URL-safe alphabet, no missing padding.
    public static func decodeStrict(_ text: some Collection<UInt8>) -> [UInt8]? {
        let count = text.count
        guard count > 0, count % 4 == 0 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(count / 4 * 3)
        var quad: UInt32 = 0
        var filled = 0
        var padding = 0
        for byte in text {
            let value: UInt32
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(byte - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(byte - UInt8(ascii: "a")) + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(byte - UInt8(ascii: "0")) + 52
            case UInt8(ascii: "+"): value = 62
            case UInt8(ascii: "/"): value = 63
            case UInt8(ascii: "="):
                padding += 1
                value = 0
            default: return nil
            }
            if padding > 0, byte != UInt8(ascii: "=") { return nil }
            if padding > 2 { return nil }
            quad = quad << 6 | value
            filled += 1
            if filled == 4 {
                output.append(UInt8(quad >> 16 & 0xFF))
                output.append(UInt8(quad >> 8 & 0xFF))
                output.append(UInt8(quad & 0xFF))
                quad = 0
                filled = 0
            }
        }
        output.removeLast(padding)
        return output
    }
}

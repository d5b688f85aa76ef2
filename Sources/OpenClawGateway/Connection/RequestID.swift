/// Random lower-case UUIDs (version 4): request ids, and the idempotency keys that double as run ids.
///
/// Made from a secure generator's words drawn in blocks (`SecureRandomPool`) rather than Foundation's
/// `UUID()`, which on Linux opens and reads `/dev/urandom` for every id (two system calls and a file
/// descriptor on each request, a tenth of a `health` round trip's client CPU), or the stdlib's generator,
/// which makes a system call per word.
public enum RequestID {
    public static func make() -> String {
        format(high: SecureRandomPool.next(), low: SecureRandomPool.next())
    }

    /// The UUID of these 128 bits, with the version (4) and variant (RFC 9562) bits set.
    static func format(high: UInt64, low: UInt64) -> String {
        let high = (high & ~0xF000) | 0x4000
        let low = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(36)
        for (index, shift) in stride(from: 124, through: 0, by: -4).enumerated() {
            if index == 8 || index == 12 || index == 16 || index == 20 { text.append(UInt8(ascii: "-")) }
            let word = shift >= 64 ? high >> UInt64(shift - 64) : low >> UInt64(shift)
            text.append(digits[Int(word & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

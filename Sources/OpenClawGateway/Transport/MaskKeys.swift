import NIOWebSocket

/// Masking keys for the frames a client sends (RFC 6455 §5.3: unpredictable, from a strong source), cut
/// from ``SecureRandomPool`` so that a frame costs no system call of its own.
enum MaskKeys {
    static func next() -> WebSocketMaskingKey {
        let word = SecureRandomPool.next()
        return [
            UInt8(truncatingIfNeeded: word), UInt8(truncatingIfNeeded: word >> 8),
            UInt8(truncatingIfNeeded: word >> 16), UInt8(truncatingIfNeeded: word >> 24),
        ]
    }
}

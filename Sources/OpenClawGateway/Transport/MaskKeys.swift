import Crypto
import NIOWebSocket
import Synchronization

/// Masking keys for the frames a client sends (RFC 6455 §5.3: unpredictable, from a strong source).
///
/// The stdlib's system generator makes a system call for every draw, and a frame needs four bytes. The
/// keys are cut from a block of BoringSSL's generator (seeded from the system, reseeded by itself), drawn
/// a block at a time, so a frame costs no system call of its own.
enum MaskKeys {
    private static let blockBits = 4096
    private static let pool = Mutex<(block: [UInt8], next: Int)>(([], 0))

    static func next() -> WebSocketMaskingKey {
        pool.withLock { pool in
            if pool.next + 4 > pool.block.count {
                pool.block = SymmetricKey(size: SymmetricKeySize(bitCount: blockBits)).withUnsafeBytes { Array($0) }
                pool.next = 0
            }
            let start = pool.next
            pool.next += 4
            let block = pool.block
            return [block[start], block[start + 1], block[start + 2], block[start + 3]]
        }
    }
}

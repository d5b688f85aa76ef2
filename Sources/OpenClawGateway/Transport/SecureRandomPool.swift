import Crypto
import Synchronization

/// Random 64-bit words for what each request needs (its id, its frame's mask), from BoringSSL's generator
/// (seeded from the system, reseeded by itself), drawn a block at a time.
///
/// The stdlib's `SystemRandomNumberGenerator` makes a system call for every word: three a `health` request
/// (two for its id, one for its mask). Here a request pays for about one in twenty.
enum SecureRandomPool {
    private static let wordsPerBlock = 64
    private static let pool = Mutex<(block: [UInt64], next: Int)>(([], 0))

    static func next() -> UInt64 {
        pool.withLock { pool in
            if pool.next == pool.block.count {
                pool.block = drawBlock()
                pool.next = 0
            }
            defer { pool.next += 1 }
            return pool.block[pool.next]
        }
    }

    private static func drawBlock() -> [UInt64] {
        SymmetricKey(size: SymmetricKeySize(bitCount: wordsPerBlock * 64)).withUnsafeBytes { raw in
            (0..<wordsPerBlock).map { raw.loadUnaligned(fromByteOffset: $0 * 8, as: UInt64.self) }
        }
    }
}

import Synchronization

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Random 64-bit words for what each request needs (its id, its frame's mask), read from the system's
/// generator a block at a time.
///
/// The stdlib's `SystemRandomNumberGenerator` makes a `getrandom` call for every word: three a `health`
/// request (two for its id, one for its mask). Here one `read` of the kernel's generator serves 64 words,
/// about twenty requests. (Swift exposes no `getrandom` on Linux; `/dev/urandom` is the same generator,
/// opened once, close-on-exec so no child inherits it.)
enum SecureRandomPool {
    private static let wordsPerBlock = 64

    private struct State {
        var block: [UInt64] = []
        var next = 0
        /// `/dev/urandom`, opened at the first draw; -1 before, or when it cannot be opened.
        var device: Int32 = -1
    }

    private static let pool = Mutex(State())

    static func next() -> UInt64 {
        pool.withLock { pool in
            if pool.next == pool.block.count {
                pool.block = drawBlock(&pool)
                pool.next = 0
            }
            defer { pool.next += 1 }
            return pool.block[pool.next]
        }
    }

    private static func drawBlock(_ state: inout State) -> [UInt64] {
        var block = [UInt64](repeating: 0, count: wordsPerBlock)
        let filled = block.withUnsafeMutableBytes { bytes -> Bool in
            guard let base = bytes.baseAddress else { return false }
            #if canImport(Darwin)
                arc4random_buf(base, bytes.count)
                return true
            #else
                if state.device < 0 { state.device = open("/dev/urandom", O_RDONLY | O_CLOEXEC) }
                guard state.device >= 0 else { return false }
                var offset = 0
                while offset < bytes.count {
                    let count = read(state.device, base + offset, bytes.count - offset)
                    if count > 0 {
                        offset += count
                    } else if count < 0, errno == EINTR {
                        continue
                    } else {
                        return false
                    }
                }
                return true
            #endif
        }
        if !filled {
            var generator = SystemRandomNumberGenerator()
            for index in block.indices { block[index] = generator.next() }
        }
        return block
    }
}

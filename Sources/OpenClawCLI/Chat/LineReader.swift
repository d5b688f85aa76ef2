import OpenClawChat

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Lines from stdin as an async sequence, read on a thread of their own so that waiting for the user
/// never blocks the reply that is streaming meanwhile. Ends at end of input (Ctrl-D, or the end of a pipe).
enum LineReader {
    static func lines() -> AsyncStream<String> {
        AsyncStream { continuation in
            DetachedThread.start(stackSize: 1 << 20) {
                while let line = readLine(strippingNewline: true) {
                    continuation.yield(line)
                }
                continuation.finish()
            }
        }
    }
}

import Foundation

/// Lines from stdin as an async sequence, read on a thread of their own so that waiting for the user
/// never blocks the reply that is streaming meanwhile. Ends at end of input (Ctrl-D, or the end of a pipe).
enum LineReader {
    static func lines() -> AsyncStream<String> {
        AsyncStream { continuation in
            let thread = Thread {
                while let line = readLine(strippingNewline: true) {
                    continuation.yield(line)
                }
                continuation.finish()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What one thread waking another costs on this machine right now: two threads pass a byte back and
/// forth through two pipes, each blocked in `read` until the other writes.
///
/// Every round trip the client makes (a `health` request: the caller wakes the socket's thread, the
/// answer wakes the caller) pays for such wake-ups, and on a virtual machine their price is the
/// hypervisor's (on 28 Nov this VM took 56 µs a round trip, and a `health` request's client CPU was twice
/// round five's with as many context switches). Printed beside the figures, it says whether a slower
/// figure is the code's or the machine's.
enum WakeUpReference {
    /// Microseconds per round trip (two wake-ups), median of `rounds` batches; nil if the threads could
    /// not be set up.
    static func roundTripMicroseconds(trips: Int = 2_000, rounds: Int = 5) -> Double? {
        var there: [Int32] = [0, 0]
        var back: [Int32] = [0, 0]
        guard pipe(&there) == 0 else { return nil }
        guard pipe(&back) == 0 else {
            close(there[0])
            close(there[1])
            return nil
        }
        defer { for descriptor in there + back { close(descriptor) } }
        // The echoing thread reads from `there` and writes to `back` until `there` is closed.
        let ends = UnsafeMutablePointer<Int32>.allocate(capacity: 2)
        ends[0] = there[0]
        ends[1] = back[1]
        var thread = pthread_t()
        let created = pthread_create(
            &thread, nil,
            { argument in
                guard let ends = argument?.assumingMemoryBound(to: Int32.self) else { return nil }
                var byte: UInt8 = 0
                while read(ends[0], &byte, 1) == 1 {
                    guard write(ends[1], &byte, 1) == 1 else { break }
                }
                return nil
            }, ends)
        guard created == 0 else {
            ends.deallocate()
            return nil
        }
        var samples: [Double] = []
        var byte: UInt8 = 1
        let clock = ContinuousClock()
        for _ in 0..<rounds {
            let start = clock.now
            for _ in 0..<trips {
                guard write(there[1], &byte, 1) == 1, read(back[0], &byte, 1) == 1 else { break }
            }
            samples.append((clock.now - start).seconds * 1e6 / Double(trips))
        }
        // Closing the writing end ends the echoing thread's read; joined before the pipes close.
        close(there[1])
        there[1] = -1
        pthread_join(thread, nil)
        ends.deallocate()
        return samples.sorted()[samples.count / 2]
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The window's size: the input line and the live row follow it.
extension InteractiveChat {
    /// Lays the input line and the live row out again when the window changes size (SIGWINCH), until
    /// cancelled.
    func followWindowSize() async {
        let signals = SignalEvents([SIGWINCH])
        defer { signals.cancel() }
        for await _ in signals.stream {
            InputLineDisplay.shared.resized()
        }
    }
}

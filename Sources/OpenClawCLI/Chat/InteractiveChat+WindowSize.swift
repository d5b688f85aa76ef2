#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The window's size: the input line and the live row follow it.
extension InteractiveChat {
    /// How long the size must hold still before the display is laid out again.
    static let resizeSettleTime = Duration.milliseconds(40)

    /// Lays the input line and the live row out again when the window changes size (SIGWINCH), until
    /// cancelled.
    ///
    /// A window being dragged sends a signal per step, and the terminal re-wraps its rows at each. Bytes laid
    /// out for a width the terminal has already left land a row off (a stale row stays), so the display
    /// waits until the size holds still and lays out for the size the terminal ends at.
    func followWindowSize() async {
        // One kept: the signals of a burst that arrive while the size settles ask for one more look at most.
        let signals = SignalEvents([SIGWINCH], keeping: 1)
        defer { signals.cancel() }
        for await _ in signals.stream {
            var size = InputLineDisplay.windowSize()
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.resizeSettleTime)
                let now = InputLineDisplay.windowSize()
                if now == size { break }
                size = now
            }
            InputLineDisplay.shared.resized()
        }
    }
}

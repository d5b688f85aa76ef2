#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The window's size: the input line and the live row follow it.
extension InteractiveChat {
    /// Lays the input line and the live row out again when the window changes size (SIGWINCH).
    func watchWindowSize() -> Task<Void, Never>? {
        guard usesLineEditor else { return nil }
        let signals = SignalEvents([SIGWINCH])
        return Task { @MainActor in
            defer { signals.cancel() }
            for await _ in signals.stream {
                InputLineDisplay.shared.resized()
            }
        }
    }
}

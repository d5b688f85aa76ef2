#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A terminal switched to raw input for as long as this value is held: keys arrive one at a time, are not
/// echoed, and Ctrl-C, Ctrl-Z or Ctrl-\ arrive as bytes instead of signals, so the reader decides what they
/// mean (and restores the terminal first). Output processing stays on, so `\n` still starts a new line.
///
/// ``restore()`` puts back the settings found at the start; call it on every way out (a process that exits
/// with the terminal raw leaves the user's shell without echo).
final class RawTerminalMode {
    private let descriptor: Int32
    private let saved: termios
    private var restored = false

    /// Nil when `descriptor` is not a terminal.
    init?(descriptor: Int32 = STDIN_FILENO) {
        guard isatty(descriptor) == 1 else { return nil }
        var settings = termios()
        guard tcgetattr(descriptor, &settings) == 0 else { return nil }
        self.descriptor = descriptor
        self.saved = settings
        var raw = Self.rawSettings(from: settings)
        guard tcsetattr(descriptor, TCSANOW, &raw) == 0 else { return nil }
    }

    /// `settings` with echo, line buffering, signal keys and flow control off; one byte per read.
    static func rawSettings(from settings: termios) -> termios {
        var raw = settings
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL | INLCR)
        withUnsafeMutableBytes(of: &raw.c_cc) { bytes in
            bytes[Int(VMIN)] = 1
            bytes[Int(VTIME)] = 0
        }
        return raw
    }

    func restore() {
        guard !restored else { return }
        restored = true
        var settings = saved
        _ = tcsetattr(descriptor, TCSANOW, &settings)
    }

    deinit { restore() }

    /// One byte from the terminal; nil at end of input or on an error other than an interruption.
    func readByte() -> UInt8? {
        var byte: UInt8 = 0
        while true {
            let count = read(descriptor, &byte, 1)
            if count == 1 { return byte }
            if count < 0, errno == EINTR { continue }
            return nil
        }
    }
}

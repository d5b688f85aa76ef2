import OpenClawProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Asks for a secret (a gateway token) on the terminal without showing what is typed, so it never sits
/// in the scrollback, the shell history or the process list.
enum SecretPrompt {
    enum Answer: Equatable {
        case entered(String)
        /// Ctrl-C, or Ctrl-D on an empty answer.
        case cancelled
    }

    /// Nil when stdin is not a terminal (nothing to prompt on).
    static func ask(_ prompt: String) -> Answer? {
        guard let raw = RawTerminalMode() else { return nil }
        defer { raw.restore() }
        Terminal.writeAll(prompt, to: STDERR_FILENO)
        var answer = SecretEntry()
        while let byte = raw.readByte() {
            if let result = answer.handle(byte) {
                Terminal.writeAll("\n", to: STDERR_FILENO)
                return result
            }
        }
        Terminal.writeAll("\n", to: STDERR_FILENO)
        return answer.bytes.isEmpty ? .cancelled : .entered(answer.text)
    }

    /// Reads a secret from stdin (`--token -`): the first line, without its line break.
    static func readFromStandardInput() -> String? {
        guard let line = readLine(strippingNewline: true) else { return nil }
        let text = line.trimming(.whitespaces)
        return text.isEmpty ? nil : text
    }
}

/// The keys of a secret being typed: editing without showing anything.
struct SecretEntry {
    private(set) var bytes: [UInt8] = []

    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Takes one key; returns the answer once it is complete.
    mutating func handle(_ byte: UInt8) -> SecretPrompt.Answer? {
        switch byte {
        case 0x0D, 0x0A: return .entered(text)
        case 0x03: return .cancelled
        case 0x04: return bytes.isEmpty ? .cancelled : nil
        case 0x7F, 0x08:
            // One character back: drop UTF-8 continuation bytes, then the lead byte.
            while let last = bytes.last, last & 0xC0 == 0x80 { bytes.removeLast() }
            if !bytes.isEmpty { bytes.removeLast() }
        case 0x15: bytes.removeAll()  // Ctrl-U
        case 0x00..<0x20: break
        default: bytes.append(byte)
        }
        return nil
    }
}

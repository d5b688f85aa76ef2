/// Turns the bytes a terminal sends in raw mode into ``EditorKey``s.
///
/// Bytes arrive in arbitrary pieces (an arrow's `ESC [ A` can be split across reads; a paste arrives in
/// many), so the decoder keeps what it has not finished and completes it with the next bytes. A lone ESC
/// is a key of its own only when nothing follows in the same read (``flushPendingEscape()``).
struct KeyDecoder {
    private var pending: [UInt8] = []
    private var pasting = false
    private var pasted: [UInt8] = []

    static let pasteStart: [UInt8] = Array("\u{1B}[200~".utf8)
    static let pasteEnd: [UInt8] = Array("\u{1B}[201~".utf8)

    /// The keys completed by `bytes`.
    mutating func decode(_ bytes: [UInt8]) -> [EditorKey] {
        pending.append(contentsOf: bytes)
        var keys: [EditorKey] = []
        while !pending.isEmpty {
            if pasting {
                guard let end = Self.find(Self.pasteEnd, in: pending) else {
                    // Keep a tail that could be the start of the end marker.
                    let keep = min(pending.count, Self.pasteEnd.count - 1)
                    pasted.append(contentsOf: pending.dropLast(keep))
                    pending = Array(pending.suffix(keep))
                    break
                }
                pasted.append(contentsOf: pending[..<end])
                pending.removeFirst(end + Self.pasteEnd.count)
                pasting = false
                let text = String(decoding: pasted, as: UTF8.self).replacingCRLF()
                pasted = []
                keys.append(.paste(text))
                continue
            }
            guard let decoded = Self.key(at: pending) else { break }  // incomplete: wait for more
            let (key, length) = decoded
            pending.removeFirst(length)
            if key == nil {
                pasting = true
                continue
            }
            if let key { keys.append(key) }
        }
        return keys
    }

    /// A lone ESC still waiting for what follows becomes the Esc key (the reader calls this when no more
    /// bytes came right after it).
    mutating func flushPendingEscape() -> EditorKey? {
        guard !pasting, pending == [0x1B] else { return nil }
        pending = []
        return .escape
    }

    var isWaitingForMore: Bool { !pending.isEmpty }

    /// The key at the start of `bytes` and how many bytes it used; `(nil, n)` for the paste-start
    /// marker; nil when more bytes are needed.
    private static func key(at bytes: [UInt8]) -> (EditorKey?, Int)? {
        guard let first = bytes.first else { return nil }
        switch first {
        case 0x1B: return escapeSequence(bytes)
        case 0x0D: return (.enter, 1)
        case 0x0A: return (.newline, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        case 0x01: return (.home, 1)
        case 0x02: return (.left, 1)
        case 0x03: return (.interrupt, 1)
        case 0x04: return (.endOfInput, 1)
        case 0x05: return (.end, 1)
        case 0x06: return (.right, 1)
        case 0x07: return (.cancel, 1)
        case 0x09: return (.tab, 1)
        case 0x0B: return (.deleteToEnd, 1)
        case 0x0C: return (.clearScreen, 1)
        case 0x0E: return (.down, 1)
        case 0x10: return (.up, 1)
        case 0x12: return (.reverseSearch, 1)
        case 0x15: return (.deleteToStart, 1)
        case 0x17: return (.deleteWordBackward, 1)
        case 0x00..<0x20: return (.ignored, 1)
        default: return utf8Character(bytes)
        }
    }

    private static func utf8Character(_ bytes: [UInt8]) -> (EditorKey?, Int)? {
        let first = bytes[0]
        let length: Int
        switch first {
        case 0xC0...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF7: length = 4
        case 0x80...0xFF: return (.ignored, 1)  // a stray continuation or invalid byte
        default: length = 1
        }
        guard bytes.count >= length else { return nil }
        return (.text(String(decoding: bytes[0..<length], as: UTF8.self)), length)
    }

    private static func escapeSequence(_ bytes: [UInt8]) -> (EditorKey?, Int)? {
        guard bytes.count >= 2 else { return nil }
        switch bytes[1] {
        case UInt8(ascii: "["): return csi(bytes)
        case UInt8(ascii: "O"):
            guard bytes.count >= 3 else { return nil }
            let keys: [UInt8: EditorKey] = [
                UInt8(ascii: "A"): .up, UInt8(ascii: "B"): .down, UInt8(ascii: "C"): .right,
                UInt8(ascii: "D"): .left, UInt8(ascii: "H"): .home, UInt8(ascii: "F"): .end,
            ]
            return (keys[bytes[2]] ?? .ignored, 3)
        case UInt8(ascii: "b"): return (.wordLeft, 2)
        case UInt8(ascii: "f"): return (.wordRight, 2)
        case UInt8(ascii: "d"): return (.deleteWordForward, 2)
        case 0x7F, 0x08: return (.deleteWordBackward, 2)
        case 0x0D: return (.newline, 2)  // Alt+Enter
        case 0x1B: return (.escape, 1)  // Esc, then whatever the second ESC starts
        default: return (.escape, 1)
        }
    }

    /// `ESC [` parameters, intermediates, final byte.
    private static func csi(_ bytes: [UInt8]) -> (EditorKey?, Int)? {
        var index = 2
        while index < bytes.count, (0x20...0x3F).contains(bytes[index]) { index += 1 }
        guard index < bytes.count else { return bytes.count > 32 ? (.ignored, bytes.count) : nil }
        let final = bytes[index]
        let length = index + 1
        let parameters = String(decoding: bytes[2..<index], as: UTF8.self)
        let modified = parameters.hasSuffix(";5") || parameters.hasSuffix(";3")  // Ctrl or Alt
        switch (final, parameters) {
        case (UInt8(ascii: "~"), "200"): return (nil, length)
        case (UInt8(ascii: "~"), "1"), (UInt8(ascii: "~"), "7"): return (.home, length)
        case (UInt8(ascii: "~"), "4"), (UInt8(ascii: "~"), "8"): return (.end, length)
        case (UInt8(ascii: "~"), "3"): return (.delete, length)
        case (UInt8(ascii: "A"), _): return (.up, length)
        case (UInt8(ascii: "B"), _): return (.down, length)
        case (UInt8(ascii: "C"), _): return (modified ? .wordRight : .right, length)
        case (UInt8(ascii: "D"), _): return (modified ? .wordLeft : .left, length)
        case (UInt8(ascii: "H"), _): return (.home, length)
        case (UInt8(ascii: "F"), _): return (.end, length)
        case (UInt8(ascii: "u"), "13;2"): return (.newline, length)  // Shift+Enter (kitty keyboard protocol)
        default: return (.ignored, length)
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count)
        where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return start
        }
        return nil
    }
}

extension String {
    /// Pasted text with CRLF and lone CR line ends as line feeds (terminals paste lines with CR).
    fileprivate func replacingCRLF() -> String {
        var scalars = String.UnicodeScalarView()
        var previousCR = false
        for scalar in unicodeScalars {
            if scalar == "\r" {
                scalars.append("\n")
                previousCR = true
                continue
            }
            if scalar == "\n", previousCR {
                previousCR = false
                continue
            }
            previousCR = false
            scalars.append(scalar)
        }
        return String(scalars)
    }
}

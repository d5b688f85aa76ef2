/// Writes a ``JSONValue`` as compact UTF-8 JSON.
///
/// Object keys are written in sorted order so that the same value always produces the same bytes
/// (stable logs, stable test fixtures). Non-finite doubles, which JSON cannot express, become `null`.
public enum JSONSerializer {
    public static func bytes(_ value: JSONValue) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        write(value, into: &output)
        return output
    }

    public static func string(_ value: JSONValue) -> String {
        String(decoding: bytes(value), as: UTF8.self)
    }

    static func write(_ value: JSONValue, into output: inout [UInt8]) {
        switch value {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .int(let number): output.append(contentsOf: String(number).utf8)
        case .double(let number):
            if number.isFinite {
                if number.rounded() == number, abs(number) < 1e15 {
                    output.append(contentsOf: String(Int(number)).utf8)
                } else {
                    output.append(contentsOf: String(number).utf8)
                }
            } else {
                output.append(contentsOf: "null".utf8)
            }
        case .string(let text): writeString(text, into: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (offset, element) in elements.enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                write(element, into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            // Sorted by name, so that equal objects are written alike.
            for (offset, member) in members.members.sorted(by: { $0.key < $1.key }).enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                writeString(member.key, into: &output)
                output.append(UInt8(ascii: ":"))
                write(member.value, into: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// A JSON string. Besides what JSON requires (quotes, backslashes, C0 controls), DEL and every
    /// `HiddenCharacters` member (C1 controls, bidirectional controls, invisible characters) are
    /// written as `\uXXXX`: programs print the strings they read from `--json` output, logs and files, and
    /// the escape keeps them visible there while decoding to exactly the same text.
    static func writeString(_ text: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { writeEscaped($0, into: &output) }
        output.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private enum Escape {
        /// `\n`, `\"`.
        case short(UInt8)
        /// `\u001b`; a pair of surrogates past U+FFFF.
        case unicode(UInt32)
    }

    /// Copies runs of bytes that need nothing in one piece, and the escapes between them.
    private static func writeEscaped(_ bytes: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
        var written = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            var length = 1
            let escape: Escape?
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): escape = .short(byte)
            case 0x0A: escape = .short(UInt8(ascii: "n"))
            case 0x0D: escape = .short(UInt8(ascii: "r"))
            case 0x09: escape = .short(UInt8(ascii: "t"))
            case 0..<0x20, 0x7F: escape = .unicode(UInt32(byte))
            case _ where HiddenCharacters.mayStart(byte):
                let (value, scalarLength) = HiddenCharacters.decode(bytes, at: index)
                length = scalarLength
                escape = HiddenCharacters.contains(value) ? .unicode(value) : nil
            default: escape = nil
            }
            if let escape {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[written..<index]))
                write(escape, into: &output)
                written = index + length
            }
            index += length
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[written..<bytes.count]))
    }

    private static func write(_ escape: Escape, into output: inout [UInt8]) {
        switch escape {
        case .short(let letter):
            output.append(contentsOf: [0x5C, letter])
        case .unicode(let value) where value > 0xFFFF:
            let offset = value - 0x10000
            write(.unicode(0xD800 + (offset >> 10)), into: &output)
            write(.unicode(0xDC00 + (offset & 0x3FF)), into: &output)
        case .unicode(let value):
            output.append(contentsOf: [0x5C, UInt8(ascii: "u")])
            for shift: UInt32 in [12, 8, 4, 0] { output.append(hexDigits[Int(value >> shift & 0xF)]) }
        }
    }
}

extension JSONValue: CustomStringConvertible {
    /// Compact JSON text.
    public var description: String { JSONSerializer.string(self) }
}

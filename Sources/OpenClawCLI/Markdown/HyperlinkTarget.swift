/// The target of an OSC 8 hyperlink as the terminal is sent it.
///
/// The target sits inside an escape sequence and is what the terminal shows on hover and opens on a
/// click, so a link from a reply must neither end the sequence early nor hide what it points to. The
/// OSC 8 convention allows only printable ASCII there (bytes 32–126): every other byte (controls, a
/// space, C1 and bidirectional controls, invisible characters, any non-ASCII letter) is percent-encoded,
/// as a URI writes it, so the link still opens the same address and shows every character.
enum HyperlinkTarget {
    static func encoded(_ link: String) -> String {
        var result = ""
        for byte in link.utf8 {
            if (0x21...0x7E).contains(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += "%" + String(hexDigits[Int(byte >> 4)]) + String(hexDigits[Int(byte & 0xF)])
            }
        }
        return result
    }

    private static let hexDigits = Array("0123456789ABCDEF")
}

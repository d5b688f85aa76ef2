/// Reads what `avahi-browse --resolve --parsable --terminate _openclaw-gw._tcp` prints (Linux).
///
/// Each resolved service is a line `=;IFACE;PROTO;NAME;TYPE;DOMAIN;HOST;ADDRESS;PORT;TXT`, with `;`,
/// `\` and non-printable bytes in names escaped as `\DDD` (decimal) and the TXT record as
/// space-separated `"…"` strings. One service seen on several interfaces or over IPv4 and IPv6 prints
/// several lines; they become one gateway with all its addresses. `+` (found, not resolved) and `-`
/// (gone) lines and anything unreadable are skipped: a neighbour's broken beacon must not hide the others.
package enum AvahiBrowseOutput {
    package static func gateways(from output: String) -> [DiscoveredGateway] {
        var found: [DiscoveredGateway] = []
        for line in output.split(whereSeparator: \.isNewline) {
            guard let gateway = resolved(String(line)), gateway.txt.isGateway else { continue }
            let sameService: (DiscoveredGateway) -> Bool = {
                $0.serviceName == gateway.serviceName && $0.domain == gateway.domain
                    && $0.host == gateway.host && $0.port == gateway.port
            }
            if let index = found.firstIndex(where: sameService) {
                for address in gateway.addresses where !found[index].addresses.contains(address) {
                    found[index].addresses.append(address)
                }
            } else {
                found.append(gateway)
            }
        }
        return found
    }

    /// One `=` line, or nil.
    static func resolved(_ line: String) -> DiscoveredGateway? {
        let fields = line.split(separator: ";", maxSplits: 9, omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 10, fields[0] == "=", fields[4] == DiscoveredGateway.serviceType,
            let port = Int(fields[8]), (1...65_535).contains(port), !fields[6].isEmpty
        else { return nil }
        let address = unescaped(fields[7])
        return DiscoveredGateway(
            serviceName: unescaped(fields[3]), host: unescaped(fields[6]), port: port,
            addresses: address.isEmpty ? [] : [address], domain: unescaped(fields[5]),
            txt: DiscoveryTXT(entries: txtStrings(fields[9])))
    }

    /// `\DDD` (a decimal byte) and `\C` escapes undone; the bytes read as UTF-8.
    static func unescaped(_ text: String) -> String {
        var bytes: [UInt8] = []
        var input = Array(text.utf8)[...]
        while let byte = input.popFirst() {
            guard byte == UInt8(ascii: "\\"), let next = input.first else {
                bytes.append(byte)
                continue
            }
            let digits = input.prefix(3)
            if digits.count == 3, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                let value = UInt8(String(decoding: digits, as: UTF8.self))
            {
                bytes.append(value)
                input = input.dropFirst(3)
            } else {
                bytes.append(next)
                input = input.dropFirst()
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The quoted strings of a TXT field: `"a=1" "b=two words"`, with `\"`, `\\` and `\DDD` inside.
    static func txtStrings(_ field: String) -> [String] {
        var strings: [String] = []
        var current: [UInt8] = []
        var inside = false
        var escaped = false
        for byte in field.utf8 {
            if !inside {
                if byte == UInt8(ascii: "\"") { inside = true }
                continue
            }
            if escaped {
                // Kept escaped, so `\DDD` is decoded with the rest below.
                current += [UInt8(ascii: "\\"), byte]
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                strings.append(unescaped(String(decoding: current, as: UTF8.self)))
                current = []
                inside = false
            } else {
                current.append(byte)
            }
        }
        return strings
    }
}

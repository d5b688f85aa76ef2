import Synchronization

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

/// The local gateway a secret given without an address goes to, and the one line that says so.
///
/// Its port is the gateway's own default: `OPENCLAW_GATEWAY_PORT` when set (upstream's gateway reads the
/// same variable, `docs/gateway/index.md`), else 18789.
enum LocalGatewayNote {
    static var port: UInt16 {
        ProcessEnvironment.current["OPENCLAW_GATEWAY_PORT"].flatMap { UInt16($0) }.flatMap { $0 > 0 ? $0 : nil }
            ?? 18789
    }
    static var address: String { "ws://127.0.0.1:\(port)" }
    private static let said = Mutex(false)

    static func sayOnce() {
        guard
            said.withLock({ (value: inout Bool) -> Bool in
                defer { value = true }
                return !value
            })
        else { return }
        let terminal = Terminal()
        terminal.errorLine(terminal.styled("No gateway URL given: using the local gateway at \(address).", .dim))
    }

    /// Whether something accepts connections on the local gateway's port (a refused connection on
    /// loopback answers at once; nothing is sent).
    static func isListening() -> Bool {
        #if canImport(Glibc)
            let stream = Int32(SOCK_STREAM.rawValue)
        #else
            let stream = SOCK_STREAM
        #endif
        let descriptor = socket(AF_INET, stream, 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return result == 0
    }
}

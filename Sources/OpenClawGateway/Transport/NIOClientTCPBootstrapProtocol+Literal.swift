import NIOCore

extension NIOClientTCPBootstrapProtocol {
    /// Connects to `host`, without a name lookup when it is an IP address: NIO resolves even
    /// `127.0.0.1` through `getaddrinfo`, on a thread of its own, which cost a loopback handshake about
    /// a twentieth of its CPU. A name (or an address with a zone) goes through the resolver as before.
    func connect(addressOrName host: String, port: Int) -> EventLoopFuture<any Channel> {
        guard let address = try? SocketAddress(ipAddress: host, port: port) else {
            return connect(host: host, port: port)
        }
        return connect(to: address)
    }
}

import NIOCore
import NIOPosix
import Synchronization

/// An HTTP server on 127.0.0.1 (ephemeral port, raw SwiftNIO bytes) that answers every request with one
/// scripted, possibly hostile, response: an endless body, a redirect, a stall. For tests of a client's
/// download limits; it never parses more of the request than where its head ends.
public final class ScriptedHTTPServer: Sendable {
    /// How the server answers.
    public enum Reply: Sendable {
        /// 200 with a body that never ends (until the client goes away or ``endlessCap`` bytes).
        case endless(Framing)
        /// A redirect status with a `Location`.
        case redirect(status: Int, location: String)
        /// 200 stating a `Content-Length` of 1,000, ten bytes of it, then silence (closed after 30 s).
        case stall
        /// 200 with exactly these bytes and their `Content-Length`.
        case body([UInt8])
    }

    /// How an endless body is delimited.
    public enum Framing: Sendable {
        case chunked
        /// A stated length (which the body does fill, however large).
        case contentLength(Int)
        /// Neither: the body ends when the connection does.
        case untilClose
    }

    /// What clients did, as seen by the server.
    public struct Observed: Sendable, Equatable {
        public var requests = 0
        /// Body bytes written, all connections together.
        public var bodyBytesWritten = 0
        public var connectionsClosed = 0
    }

    /// Where an endless body stops on its own, so a client that never cuts it off still ends.
    public static let endlessCap = 256 * 1_048_576

    public let port: Int
    let observations: Mutex<Observed>
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel

    public var observed: Observed { observations.withLock { $0 } }

    /// `http://127.0.0.1:<port>` followed by `path`.
    public func url(_ path: String = "/image.png") -> String { "http://127.0.0.1:\(port)\(path)" }

    private init(port: Int, group: MultiThreadedEventLoopGroup, channel: any Channel) {
        self.port = port
        self.group = group
        self.channel = channel
        self.observations = Mutex(Observed())
    }

    public static func start(_ reply: Reply) async throws -> ScriptedHTTPServer {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let box = ObservedBox()
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        ScriptedHTTPHandler(reply: reply, record: box.record))
                }
            }
        let channel = try await bootstrap.bind(host: "127.0.0.1", port: 0).get()
        guard let port = channel.localAddress?.port else { throw ScriptedHTTPServerError.noPort }
        let server = ScriptedHTTPServer(port: port, group: group, channel: channel)
        box.server.withLock { $0 = server }
        return server
    }

    public func stop() async {
        try? await channel.close()
        try? await group.shutdownGracefully()
    }
}

enum ScriptedHTTPServerError: Error {
    case noPort
}

/// Lets the handlers record into the server made after them.
final class ObservedBox: Sendable {
    let server = Mutex<ScriptedHTTPServer?>(nil)

    var record: @Sendable (@Sendable (inout ScriptedHTTPServer.Observed) -> Void) -> Void {
        { change in
            guard let server = self.server.withLock({ $0 }) else { return }
            server.observations.withLock { change(&$0) }
        }
    }
}

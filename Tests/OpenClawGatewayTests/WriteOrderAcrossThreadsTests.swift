import NIOCore
import NIOPosix
import OpenClawProtocol
import OpenClawTestSupport
import Synchronization
import Testing

@testable import OpenClawGateway

/// The writer's order is the gateway's order, whichever thread queued a frame: NIO keeps the order of
/// writes made from one thread only, and callers write from any thread (openclaw-chat runs its tasks on
/// the event loops, and a response resumes its caller on the socket's own loop).
@Suite("Frames in the writer's order across threads", .serialized)
struct WriteOrderAcrossThreadsTests {
    /// A frame queued on the socket's own loop went out at once, ahead of one queued earlier from
    /// another thread (caught by an attack review: 4 rounds of 4).
    @Test(.timeLimit(.minutes(1))) func framesReachTheGatewayInTheOrderTheWriterTookThem() async throws {
        let gateway = try await HostileGateway.start(HostileScript())
        for index in 0..<4 {
            let (connection, socketLoop, firstHanded) = try await Self.connect(gateway, first: "first.\(index)")
            let route = try #require(await connection.pending.route)
            let spinning = OrderFlag()
            // A job on the socket's loop: it queues its frame once "first" was handed to the socket by a
            // caller on another thread.
            async let second: Void = LoopBoundWriter(socketLoop).enqueue(
                "second.\(index)", on: route.writer, after: firstHanded, spinning: spinning)
            while !spinning.isSet { await Task.yield() }
            _ = try? await connection.request("first.\(index)", timeout: .seconds(5))
            await second
            try await Task.sleep(for: .milliseconds(100))
            await connection.disconnect()
            let seen = gateway.observed.requests.filter { $0.hasSuffix(".\(index)") && !$0.hasPrefix("warmup") }
            #expect(seen == ["first.\(index)", "second.\(index)"], "the writer handed first to the socket first")
        }
        await gateway.stop()
    }

    /// Responses, timeouts, cancellations and the socket's end racing: each caller returns exactly once.
    @Test(.timeLimit(.minutes(1))) func everyCallerReturnsOnceWhateverWins() async throws {
        let gateway = try await HostileGateway.start(HostileScript())
        for round in 0..<5 {
            let (connection, _, _) = try await Self.connect(gateway, first: "-")
            let returned = ReturnCount()
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<400 {
                    let task = Task {
                        _ = try? await connection.request("r\(round).\(index)", timeout: .milliseconds(index % 7))
                        returned.add()
                    }
                    group.addTask {
                        if index % 3 == 0 { task.cancel() }
                        await task.value
                    }
                    if index == 300 { group.addTask { await connection.disconnect() } }
                }
            }
            #expect(returned.value == 400)
            #expect(await connection.pending.count == 0)
        }
        await gateway.stop()
    }

    /// A connection, the event loop its socket reads on (seen from a response traced there), and a flag
    /// set when the request `first` is handed to the socket (traced under the writer's lock).
    static func connect(
        _ gateway: HostileGateway, first: String
    ) async throws -> (GatewayConnection, any EventLoop, OrderFlag) {
        let firstHanded = OrderFlag()
        let socketLoop = Mutex<(any EventLoop)?>(nil)
        let connection = GatewayConnection(
            configuration: GatewayConnectionConfiguration(
                url: try GatewayURL(parsing: gateway.url), credential: .token("t"), client: Harness.client,
                challengeTimeout: .seconds(6), connectTimeout: .seconds(10),
                defaultRequestTimeout: .seconds(5), reconnect: nil),
            transport: LiveWebSocketTransport(),
            identityStore: InMemoryDeviceIdentityStore(identity: DeviceIdentity(createdAtMs: 0)),
            tokenStore: InMemoryDeviceTokenStore(),
            traceFrame: { trace in
                if trace.direction == .outbound, trace.text.contains("\"\(first)\"") { firstHanded.set() }
                if trace.direction == .inbound, let loop = MultiThreadedEventLoopGroup.currentEventLoop {
                    socketLoop.withLock { $0 = loop }
                }
            })
        try await connection.connect()
        // A response handed over where the socket reads it is traced on the socket's loop; one that had
        // events ahead of it goes through the actor, so ask until one was seen there.
        for _ in 0..<20 where socketLoop.withLock({ $0 }) == nil {
            _ = try await connection.request("warmup")
        }
        let loop = try #require(socketLoop.withLock { $0 })
        return (connection, loop, firstHanded)
    }
}

/// Runs its methods on one NIO event loop, as openclaw-chat runs its tasks.
private actor LoopBoundWriter {
    let loop: any EventLoop
    init(_ loop: any EventLoop) { self.loop = loop }
    nonisolated var unownedExecutor: UnownedSerialExecutor { loop.executor.asUnownedSerialExecutor() }

    /// Holds the loop until `after` is set, then queues `method`'s frame from the loop itself.
    func enqueue(_ method: String, on writer: OutboundWriter, after: OrderFlag, spinning: OrderFlag) {
        spinning.set()
        let deadline = ContinuousClock.now + .seconds(5)
        while !after.isSet, ContinuousClock.now < deadline {}
        let text = FrameCodec.text(RequestFrame(id: RequestID.make(), method: method, params: nil))
        writer.enqueue(.text(text), requestID: "second")
    }
}

final class OrderFlag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}

final class ReturnCount: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

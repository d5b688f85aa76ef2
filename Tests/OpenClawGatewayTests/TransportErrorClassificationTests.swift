import NIOCore
import NIOPosix
import Testing

@testable import OpenClawGateway

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failed connect is classified by the error's type and values, never by its text.
@Suite("Transport errors, typed")
struct TransportErrorClassificationTests {
    let url = GatewayURL(isSecure: false, host: "mini.local", port: 18789)

    @Test func eachKindOfFailureReadsAsWhatHappened() {
        #expect(
            LiveWebSocketTransport.classify(ChannelError.connectTimeout(.seconds(12)), url: url) == .timedOut)
        #expect(
            LiveWebSocketTransport.classify(IOError(errnoCode: ECONNREFUSED, reason: "connect"), url: url)
                == .connectionRefused(host: "mini.local", port: 18789))
        // An error nothing here knows keeps its description, whatever its text says.
        struct Unknown: Error, CustomStringConvertible { var description: String { "Connection refused" } }
        #expect(LiveWebSocketTransport.classify(Unknown(), url: url) == .other("Connection refused"))
    }

    @Test func aNameThatDoesNotResolveIsHostNotFound() async throws {
        let transport = LiveWebSocketTransport()
        await #expect(throws: TransportError.hostNotFound(host: "no-such-gateway.invalid")) {
            _ = try await transport.connect(
                to: GatewayURL(isSecure: false, host: "no-such-gateway.invalid", port: 18789),
                maxFrameSize: 1 << 20)
        }
    }
}

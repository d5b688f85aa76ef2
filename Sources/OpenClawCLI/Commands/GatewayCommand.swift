import ArgumentParser
import OpenClawProtocol
import OpenClawTestGateway

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `openclaw-chat gateway`: the test gateway in the foreground, to try other clients against it.
struct GatewayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gateway",
        _superCommandName: OpenClawChatCommand.name,
        abstract: "Run the built-in test gateway (scripted agent) in the foreground; Ctrl-C or SIGTERM stops it."
    )

    @Option(help: "Port to listen on (0 picks a free one).") var port = 18789
    static let defaultToken = "test-token"
    @Option(help: "Token clients must present.") var token = Self.defaultToken
    @Option(name: .customLong("protocol"), help: "Protocol version to speak: 3 or 4.") var protocolVersion = 4
    @Option(help: "Interface to bind.") var host = "127.0.0.1"
    @Option(
        name: .customLong("quirk"),
        help: ArgumentHelp(
            "Behave like another gateway dialect (repeatable).",
            discussion: "One of: " + GatewayQuirks.named.map(\.name).joined(separator: ", ") + "."
        )
    ) var quirkNames: [String] = []
    @Option(help: "Tick interval advertised in hello-ok, in milliseconds.") var tickIntervalMs: Int?
    @Flag(help: "Serve wss:// with a self-signed certificate made at start (its fingerprint is printed).")
    var tls = false
    @Flag(
        help: ArgumentHelp(
            "New devices need approval, given on stdin (approve ID), to try a client's pairing flow.",
            discussion: "Without it, devices on loopback are approved silently, as on a real gateway."))
    var requirePairing = false
    @Option(help: "Largest frame accepted, advertised as policy.maxPayload (default 25 MiB).") var maxPayload: Int?
    @Option(help: "Merge a run's deltas within this many milliseconds, as upstream does (default 150; 0 sends each).")
    var deltaThrottleMs: Int?

    func validate() throws {
        guard ProtocolVersion(rawValue: protocolVersion) != nil else {
            throw ValidationError("--protocol must be 3 or 4")
        }
        for name in quirkNames where GatewayQuirks(name: name) == nil {
            let known = GatewayQuirks.named.map(\.name).joined(separator: ", ")
            throw ValidationError("unknown --quirk '\(name)'; known: \(known)")
        }
        if let tickIntervalMs, tickIntervalMs <= 0 { throw ValidationError("--tick-interval-ms must be positive") }
        if let maxPayload, maxPayload < 1024 { throw ValidationError("--max-payload must be at least 1024") }
        if let deltaThrottleMs, deltaThrottleMs < 0 { throw ValidationError("--delta-throttle-ms cannot be negative") }
    }

    /// The dialect the flags ask for.
    var quirks: GatewayQuirks {
        quirkNames.compactMap(GatewayQuirks.init(name:)).reduce(into: []) { $0.formUnion($1) }
    }

    func run() async throws {
        let terminal = Terminal()
        var configuration = TestGatewayConfiguration(protocolNumber: protocolVersion)
        configuration.host = host
        configuration.port = port
        configuration.auth = .token(token)
        configuration.quirks = quirks
        if let tickIntervalMs { configuration.tickIntervalMs = tickIntervalMs }
        if let maxPayload { configuration.maxPayload = maxPayload }
        if let deltaThrottleMs { configuration.deltaThrottleMs = deltaThrottleMs }
        if tls { configuration.tls = TestGatewayTLS(dnsNames: ["localhost", host]) }
        if requirePairing { configuration.pairing = .requireApproval }
        let gateway: TestGateway
        do {
            gateway = try await TestGateway.start(configuration)
        } catch TestGatewayError.portInUse(_, let port) {
            terminal.error(
                "Port \(port) is in use: another program (perhaps a gateway) is listening on it.",
                hint: "Stop that program, or pick another port with --port N (--port 0 picks a free one).")
            throw ExitCode(ExitStatus.local)
        }
        // Listening before the address is announced: a SIGTERM sent the moment it appears still stops
        // the gateway cleanly.
        let signals = SignalEvents([SIGINT, SIGTERM])
        let dialect = quirks.isEmpty ? "" : ", quirks: " + quirks.names.joined(separator: ", ")
        terminal.line("Test gateway (protocol \(protocolVersion)\(dialect)) listening on \(gateway.url)")
        if let fingerprint = gateway.tlsFingerprint { terminal.line("TLS certificate fingerprint: \(fingerprint)") }
        // The built-in test token is no secret (it is in the help); one given with --token is not echoed.
        let shownToken = token == Self.defaultToken ? token : "<token>"
        terminal.line("Try: openclaw-chat --url \(gateway.url) --token \(shownToken)   (Ctrl-C to stop)")
        // Unstructured: it reads stdin on the side while the gateway runs; cancelled when the gateway stops.
        let console = requirePairing ? Task { await PairingConsole.run(gateway, terminal: terminal) } : nil
        if requirePairing {
            terminal.line("Pairing required: requests are shown here; approve them with 'approve ID'.")
        }
        // SIGTERM (what service managers send) stops it as cleanly as Ctrl-C.
        try await withSignalCancellation(listeningWith: signals) {
            try await gateway.runUntilCancelled()
        }
        console?.cancel()
        await gateway.stop()
        terminal.line("Test gateway stopped.")
    }
}

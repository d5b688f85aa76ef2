import ArgumentParser
import OpenClawGateway
import OpenClawProtocol

/// `openclaw-chat discover`: the gateways that advertise themselves on this network (mDNS/DNS-SD,
/// `_openclaw-gw._tcp`), with the command that connects to each.
struct DiscoverCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "discover",
        _superCommandName: OpenClawChatCommand.name,
        abstract: "Find OpenClaw gateways on the local network (needs avahi-browse on Linux)."
    )

    @Flag(help: "One JSON object per gateway.") var json = false
    @Option(help: "Browse for at most this many seconds.") var timeout: Double = 5

    func validate() throws {
        guard timeout > 0, timeout <= 120 else { throw ValidationError("--timeout must be between 0 and 120 seconds") }
    }

    func run() async throws {
        let terminal = Terminal()
        let gateways: [DiscoveredGateway]
        do {
            gateways = try await AvahiBrowser(timeout: .milliseconds(Int(timeout * 1000))).browse()
        } catch {
            switch error {
            case .notInstalled:
                terminal.error(
                    "avahi-browse is not installed, so this machine cannot browse for gateways.",
                    hint:
                        "Install it (Debian/Ubuntu: sudo apt install avahi-utils; Fedora: sudo dnf install avahi-tools), "
                        + "or connect by address: openclaw-chat login --url ws://HOST:18789.")
            case .failed(let status, let detail):
                terminal.error(
                    "avahi-browse failed (status \(status)): \(detail.isEmpty ? "no detail" : detail)",
                    hint: "Is the Avahi daemon running? (systemctl status avahi-daemon)")
            case .cannotStart(let reason):
                terminal.error("avahi-browse could not be started: \(reason)", hint: nil)
            }
            throw ExitCode(ExitStatus.local)
        }
        if json {
            for gateway in gateways { terminal.line(JSONSerializer.string(Self.json(gateway))) }
            return
        }
        guard !gateways.isEmpty else {
            terminal.line("No gateway is advertising itself on this network.")
            terminal.line(
                terminal.styled(
                    "Gateways advertise only with their bonjour plugin on (on by default on macOS); "
                        + "you can always connect by address.", .dim))
            return
        }
        for gateway in gateways { print(gateway, terminal: terminal) }
    }

    private func print(_ gateway: DiscoveredGateway, terminal: Terminal) {
        // Everything in a beacon comes from the network unauthenticated: escaped like any remote text.
        let addresses = gateway.addresses.isEmpty ? "" : "  (" + gateway.addresses.joined(separator: ", ") + ")"
        terminal.line(
            terminal.styled(TerminalText.escapedLine(gateway.displayName), .bold) + "  "
                + TerminalText.escapedLine(gateway.url.description) + TerminalText.escapedLine(addresses))
        if let fingerprint = gateway.txt.advertisedFingerprint {
            terminal.line(
                "  advertises certificate \(fingerprint): compare it with the one the first connection shows "
                    + "(it is never trusted from the beacon)")
        }
        if let tailnet = gateway.txt.tailnetDns {
            terminal.line("  from another network over Tailscale: " + TerminalText.escapedLine(tailnet))
        }
        // Shown escaped, then quoted for the shell: what is printed is what is pasted, and pasting it runs
        // nothing but the login, whatever the beacon's host name holds.
        let url = ShellWord.quoted(TerminalText.escapedLine(gateway.url.description))
        terminal.line(terminal.styled("  openclaw-chat login --url \(url)", .dim))
    }

    static func json(_ gateway: DiscoveredGateway) -> JSONValue {
        .object(dropping: [
            ("name", .string(gateway.displayName)), ("service", .string(gateway.serviceName)),
            ("url", .string(gateway.url.description)), ("host", .string(gateway.host)), ("port", .int(gateway.port)),
            ("addresses", .strings(gateway.addresses)), ("tls", .bool(gateway.usesTLS)),
            ("advertisedFingerprint", .string(gateway.txt.advertisedFingerprint?.description)),
            ("tailnetDns", .string(gateway.txt.tailnetDns)),
        ])
    }
}

import ArgumentParser
import OpenClawGateway

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `openclaw-chat trust`: the certificate pinned for the configured `wss://` gateway; `--forget` removes
/// it so the next connection is a first use again (after the gateway's certificate was replaced).
struct TrustCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trust",
        _superCommandName: OpenClawChatCommand.name,
        abstract: "Show or forget the TLS certificate pinned for the gateway."
    )

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Remove the pin: the next connection shows the certificate and asks again.") var forget = false

    func run() async throws {
        let terminal = Terminal()
        do {
            guard let text = try global.configuredURLText() else { throw CLIError.noGatewayConfigured }
            let url: GatewayURL
            do {
                url = try GatewayURL(parsing: text)
            } catch {
                throw GatewayError.invalidURL(error)
            }
            guard url.isSecure else {
                terminal.line("\(url) uses ws://: no TLS, nothing to pin.")
                return
            }
            let store = global.pinStore
            let pin = try store.pin(for: url.tlsPinKey)
            if forget {
                try store.remove(url.tlsPinKey)
                terminal.line(
                    pin == nil
                        ? "No certificate was pinned for \(url.tlsPinKey)."
                        : "Forgot \(pin?.fingerprint.description ?? "") for \(url.tlsPinKey); the next connection asks again."
                )
                return
            }
            guard let pin else {
                terminal.line("No certificate pinned for \(url.tlsPinKey).")
                return
            }
            var line = "\(url.tlsPinKey) \(pin.fingerprint)"
            if let pinnedAtMs = pin.pinnedAtMs {
                let date = Date(timeIntervalSince1970: TimeInterval(pinnedAtMs) / 1000)
                line += " (pinned \(date.formatted(.iso8601)))"
            }
            terminal.line(line)
        } catch {
            throw report(error, terminal: terminal)
        }
    }
}

import ArgumentParser
import OpenClawGateway
import OpenClawProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `openclaw-chat gateways`: the saved gateways, which one is current, and whether each answers now.
struct GatewaysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gateways",
        _superCommandName: OpenClawChatCommand.name,
        abstract: "List the saved gateways with their status; --use NAME makes one the current gateway."
    )

    @OptionGroup var global: GlobalOptions
    @Option(help: "Make this saved gateway the current one.") var use: String?
    @Flag(help: "List only; do not connect to each gateway.") var noCheck = false

    func run() async throws {
        let terminal = Terminal()
        do {
            var profiles = try global.profiles()
            if let use {
                profiles.currentName = try profiles.named(use).name
                try profiles.save(to: global.state.loginFile)
                terminal.line("'\(TerminalText.escapedLine(use))' is now the current gateway.")
            }
            guard !profiles.isEmpty else {
                terminal.line("No gateway saved. Add one: openclaw-chat login --name home --url ws://… (or --code …)")
                return
            }
            let statuses = noCheck ? [:] : await check(profiles.profiles, terminal: terminal)
            let pins = global.pinStore
            // A name can come from a setup code's address: escaped like the rest.
            let width = profiles.names.map { TerminalText.escapedLine($0).count }.max() ?? 0
            for profile in profiles.profiles {
                let marker = profile.name == profiles.currentName ? "*" : " "
                let url = profile.address
                let name = TerminalText.escapedLine(profile.name)
                var line = "\(marker) \(name.padded(toUTF16Length: width))  "
                line += url.map { TerminalText.escapedLine($0.description) } ?? "(not a gateway address)"
                if let url, url.isSecure, let pin = try? pins.pin(for: url.tlsPinKey) {
                    line += "  pinned \(pin.fingerprint.description.prefix(23))…"
                }
                if let status = statuses[profile.name] { line += "  " + status }
                terminal.line(line)
            }
        } catch {
            throw report(error, terminal: terminal)
        }
    }

    /// Connects to each gateway in turn (short timeouts, no retries) and says how it answered. One after
    /// another, not at once: the connections share the device-token file, and a token one of them saves
    /// must not be overwritten by another's.
    private func check(_ profiles: [GatewayProfile], terminal: Terminal) async -> [String: String] {
        var result: [String: String] = [:]
        for profile in profiles {
            result[profile.name] = await status(of: profile, terminal: terminal)
        }
        return result
    }

    private func status(of profile: GatewayProfile, terminal: Terminal) async -> String {
        guard let url = profile.address else { return "invalid URL" }
        let connection = global.makeConnection(
            url: url, credential: profile.credential, terminal: terminal, connectTimeout: .seconds(5))
        let answer: String
        do {
            let session = try await connection.connect()
            let ok = "ok (protocol \(session.protocolVersion.rawValue))"
            // Works today, on a token that can be revoked: the saved secret needs fixing.
            let standIn = await connection.signedInWithSavedDeviceToken
            answer = standIn ? ok + ", but its saved token was refused (login again)" : ok
        } catch {
            answer = Self.label(error)
        }
        await connection.disconnect()
        return answer
    }

    /// A few words for the list; `doctor --gateway NAME` gives the whole story.
    static func label(_ error: GatewayError) -> String {
        switch error {
        case .transport(.tlsTrust(.pinMismatch)): return "CERTIFICATE CHANGED (see doctor)"
        case .transport(.tlsTrust(.outsideValidity)): return "certificate expired"
        case .transport(.tlsTrust): return "certificate not trusted yet"
        case .transport, .challengeTimeout, .connectionLost, .notConnected: return "unreachable"
        case .authFailed: return "sign-in refused"
        case .pairingRequired: return "waiting for pairing approval"
        case .protocolMismatch, .unsupportedProtocol: return "incompatible protocol"
        // The gateway's own words: escaped, on one line.
        default: return "error: \(TerminalText.escapedLine(error.message))"
        }
    }
}

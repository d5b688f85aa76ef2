import ArgumentParser
import OpenClawGateway
import OpenClawProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `openclaw-chat doctor`: step-by-step diagnosis of the connection, with a fix for the first failure.
struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        _superCommandName: OpenClawChatCommand.name,
        abstract:
            "Diagnose the connection step by step: URL, DNS, TCP, TLS, WebSocket, challenge, protocol, auth, pairing, scopes."
    )

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let terminal = Terminal()
        let urlText: String
        do {
            guard let configured = try global.configuredURLText() else { throw CLIError.noGatewayConfigured }
            urlText = configured
        } catch {
            throw report(error, terminal: terminal)
        }
        let credential = (try? global.resolveGateway())??.credential ?? .none
        let options = global
        let diagnosis = GatewayDiagnosis(
            urlText: urlText, credential: credential, transport: global.makeTransport(),
            tlsPins: global.pinStore
        ) { url in
            // The configured token is what is diagnosed: a saved device token must not hide a wrong one.
            options.makeConnection(url: url, credential: credential, terminal: terminal, retriesWithDeviceToken: false)
        }
        terminal.line("Checking \(Self.shown(urlText))")
        let steps = await diagnosis.run { step in
            let name = step.kind.rawValue.padded(toUTF16Length: 10)
            // Details quote the gateway (its version, its error text).
            let detail = TerminalText.escapedLine(step.detail)
            switch step.outcome {
            case .passed: terminal.line("  \(terminal.styled("✓", .green)) \(name) \(detail)")
            case .skipped: terminal.line(terminal.styled("  – \(name) \(detail)", .dim))
            case .failed:
                terminal.line("  \(terminal.styled("✗", .red)) \(name) \(detail)")
                if let fix = step.fix {
                    terminal.line("    \(terminal.styled("fix:", .yellow)) \(TerminalText.escaped(fix))")
                }
            }
        }
        if let failed = steps.first(where: { $0.outcome == .failed }) { throw ExitCode(Self.exitStatus(of: failed)) }
        terminal.line(terminal.styled("All checks passed.", .green))
    }

    /// The address as typed or saved, for the screen: a query (where tokens travel) redacted, as
    /// ``GatewayURL`` shows it even when the text does not parse, and escaped (a setup code or a pasted
    /// link can carry anything).
    static func shown(_ urlText: String) -> String {
        let text =
            if let url = try? GatewayURL(parsing: urlText) {
                url.description
            } else if let questionMark = urlText.firstIndex(of: "?") {
                String(urlText[..<questionMark]) + "?<redacted>"
            } else {
                urlText
            }
        return TerminalText.escapedLine(text)
    }

    /// The exit code of the first failed step: the same as any other command exits with for that failure
    /// (4 for a refused token, 5 for pairing …), so scripts can use `doctor` to tell them apart.
    static func exitStatus(of step: DiagnosisStep) -> Int32 {
        if let error = step.error { return ExitStatus.of(error) }
        switch step.kind {
        case .scopes, .auth: return ExitStatus.auth
        case .pairing: return ExitStatus.pairing
        case .url: return ExitStatus.usage
        default: return ExitStatus.connection
        }
    }
}

import ArgumentParser
import Foundation
import OpenClawGateway

/// `openclaw-chat doctor`: step-by-step diagnosis of the connection, with a fix for the first failure.
struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
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
            tlsPins: global.tlsTrust.pinStore
        ) { url in
            // The configured token is what is diagnosed: a saved device token must not hide a wrong one.
            options.makeConnection(url: url, credential: credential, terminal: terminal, retriesWithDeviceToken: false)
        }
        terminal.line("Checking \(urlText)")
        let steps = await diagnosis.run { step in
            let name = step.kind.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)
            switch step.outcome {
            case .passed: terminal.line("  \(terminal.styled("✓", .green)) \(name) \(step.detail)")
            case .skipped: terminal.line(terminal.styled("  – \(name) \(step.detail)", .dim))
            case .failed:
                terminal.line("  \(terminal.styled("✗", .red)) \(name) \(step.detail)")
                if let fix = step.fix { terminal.line("    \(terminal.styled("fix:", .yellow)) \(fix)") }
            }
        }
        if steps.contains(where: { $0.outcome == .failed }) { throw ExitCode(ExitStatus.connection) }
        terminal.line(terminal.styled("All checks passed.", .green))
    }
}

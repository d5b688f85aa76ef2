import ArgumentParser
import OpenClawGateway

/// Exit statuses, so scripts can tell failures apart.
enum ExitStatus {
    /// Something on this machine failed: a file that cannot be read or written, a port in use, a local
    /// program (avahi-browse) that failed. Never 1, which says nothing a script can act on.
    static let local: Int32 = 9
    static let usage: Int32 = 2
    static let connection: Int32 = 3
    static let auth: Int32 = 4
    static let pairing: Int32 = 5
    static let timeout: Int32 = 6
    static let aborted: Int32 = 7
    static let runError: Int32 = 8

    static func of(_ error: GatewayError) -> Int32 {
        switch error {
        case .authFailed, .deviceIdentityRejected, .missingScope: return auth
        case .pairingRequired: return pairing
        case .timeout, .challengeTimeout: return timeout
        case .invalidURL, .attachment: return usage
        default: return connection
        }
    }
}

/// Failures of the terminal client itself, with a message a person can act on.
enum CLIError: Error, CustomStringConvertible {
    case unreadableFile(path: String, reason: String)
    case noGatewayConfigured
    case message(String, status: Int32)

    var description: String {
        switch self {
        case .unreadableFile(let path, let reason): return "Cannot read \(path): \(reason)."
        case .noGatewayConfigured:
            return "No gateway configured. Pass --url and --token, set OPENCLAW_GATEWAY_URL and "
                + "OPENCLAW_GATEWAY_TOKEN, or run 'openclaw-chat login'. To try it without a gateway: openclaw-chat demo"
        case .message(let text, _): return text
        }
    }

    var status: Int32 {
        switch self {
        case .noGatewayConfigured: return ExitStatus.usage
        case .message(_, let status): return status
        case .unreadableFile: return ExitStatus.local
        }
    }
}

/// Prints an error to stderr the way every command does, and returns the exit code to use.
func report(_ error: any Error, terminal: Terminal) -> ExitCode {
    switch error {
    case let gatewayError as GatewayError:
        terminal.error(gatewayError.message, hint: gatewayError.nextStep)
        return ExitCode(ExitStatus.of(gatewayError))
    case let cliError as CLIError:
        terminal.error(cliError.description, hint: nil)
        return ExitCode(cliError.status)
    default:
        terminal.error("\(error)", hint: nil)
        return ExitCode(ExitStatus.local)
    }
}

import ArgumentParser
import OpenClawGateway
import OpenClawProtocol

/// `openclaw-chat login`: check the gateway accepts us, then save its URL and secret (file mode 0600).
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Save the gateway URL and token (or password) for later commands."
    )

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Save without connecting first.") var noVerify = false

    func run() async throws {
        let terminal = Terminal()
        do {
            guard let target = try global.resolveGateway() else { throw CLIError.noGatewayConfigured }
            if !noVerify {
                // The token itself is checked: this device's saved token must not stand in for a wrong one.
                let connection = global.makeConnection(
                    url: target.url, credential: target.credential, terminal: terminal, retriesWithDeviceToken: false)
                let session = try await global.connectTrusting(connection, terminal: terminal)
                await connection.disconnect()
                terminal.line("Connected to \(target.url) (protocol \(session.protocolVersion.rawValue)).")
            }
            let path = global.state.loginFile
            try SavedLogin(url: target.url.absoluteString, credential: target.credential).save(to: path)
            terminal.line("Saved to \(path) (readable by you only).")
        } catch {
            throw report(error, terminal: terminal)
        }
    }
}

/// `openclaw-chat logout`: forget the saved URL and secret, and the device tokens.
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Remove the saved gateway URL, token and device tokens."
    )

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let terminal = Terminal()
        do {
            try SavedLogin.remove(at: global.state.loginFile)
            try SecureFile.remove(global.state.deviceTokensFile)
            terminal.line("Logged out: the saved gateway and device tokens were removed.")
        } catch {
            throw report(error, terminal: terminal)
        }
    }
}

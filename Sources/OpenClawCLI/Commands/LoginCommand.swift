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
    @Option(help: "A setup code from the gateway host (`openclaw qr`), bare or as oc-pair://…: pairs this device.")
    var code: String?

    func validate() throws {
        if code != nil, noVerify {
            throw ValidationError("--code pairs by connecting; it cannot be used with --no-verify")
        }
    }

    func run() async throws {
        let terminal = Terminal()
        do {
            if let code {
                try await loginWithCode(code, terminal: terminal)
                return
            }
            guard let target = try global.resolveGateway() else { throw CLIError.noGatewayConfigured }
            if !noVerify {
                let connection = global.makeConnection(
                    url: target.url, credential: target.credential, terminal: terminal)
                let session = try await global.connectTrusting(connection, terminal: terminal)
                await connection.disconnect()
                terminal.line("Connected to \(target.url) (protocol \(session.protocolVersion.rawValue)).")
            }
            let path = global.state.loginFile
            try SavedLogin(url: target.url.absoluteString, credential: target.credential).save(to: path)
            terminal.line("Saved to \(path) (readable by you only).")
        } catch let exit as ExitCode {
            throw exit
        } catch {
            throw report(error, terminal: terminal)
        }
    }
}

extension LoginCommand {
    /// Pairs with the code's bootstrap token and saves the address that worked, without any secret: the
    /// device token the gateway handed over signs in from now on.
    func loginWithCode(_ text: String, terminal: Terminal) async throws {
        let setup: SetupCode
        do {
            setup = try SetupCode(parsing: text)
        } catch {
            terminal.error(error.description, hint: error.nextStep)
            throw ExitCode(ExitStatus.usage)
        }
        let (url, session) = try await SetupCodeLogin(global: global, terminal: terminal).run(setup)
        terminal.line(
            "Paired with \(url) (protocol \(session.protocolVersion.rawValue)) as device \(session.deviceId.prefix(12))…."
        )
        let path = global.state.loginFile
        try SavedLogin(url: url.absoluteString, credential: .none).save(to: path)
        terminal.line("Saved to \(path) (readable by you only).")
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

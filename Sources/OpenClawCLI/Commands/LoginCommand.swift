import ArgumentParser
import OpenClawGateway
import OpenClawProtocol

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

/// `openclaw-chat login`: check the gateway accepts us, then save its URL and secret (file mode 0600).
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        _superCommandName: OpenClawChatCommand.name,
        abstract: "Save the gateway URL and token (or password) for later commands.",
        discussion: LoginCommand.discussion
    )

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Save without connecting first.") var noVerify = false
    @Option(help: "A setup code from the gateway host (`openclaw qr`), bare or as oc-pair://…: pairs this device.")
    var code: String?
    @Option(help: "Save it under this name (another name adds another gateway); default: the current one's name.")
    var name: String?

    func validate() throws {
        if let name, !GatewayProfiles.isValidName(name) {
            throw ValidationError("--name: letters, digits, '.', '_' and '-' only (at most 64)")
        }
        if code != nil, noVerify {
            throw ValidationError("--code pairs by connecting; it cannot be used with --no-verify")
        }
    }

    static let discussion = """
        With nothing given on a terminal, the gateway's address is asked for (Enter for the local one), \
        then the token. The token is asked for without echo when none is given and stdin is a terminal; \
        --token - (or --password -) reads it from stdin, so it never has to appear in argv.
        """

    func run() async throws {
        let terminal = Terminal()
        do {
            if let code {
                try await loginWithCode(code, terminal: terminal)
                return
            }
            guard let target = try resolveTarget() else { throw CLIError.noGatewayConfigured }
            if !noVerify {
                // The token itself is checked: this device's saved token must not stand in for a wrong one.
                let connection = global.makeConnection(
                    url: target.url, credential: target.credential, terminal: terminal, retriesWithDeviceToken: false)
                let session = try await global.connectTrusting(connection, terminal: terminal)
                await connection.disconnect()
                terminal.line(
                    "Connected to \(TerminalText.escapedLine(target.url.description)) (protocol \(session.protocolVersion.rawValue))."
                )
            }
            try save(url: target.url, credential: target.credential, terminal: terminal)
        } catch let exit as ExitCode {
            throw exit
        } catch {
            throw report(error, terminal: terminal)
        }
    }
}

extension LoginCommand {
    /// The gateway and its secret: `-` reads the secret from stdin; with none given anywhere and a terminal
    /// on stdin, it is asked for without echo.
    private func resolveTarget() throws -> (url: GatewayURL, credential: GatewayCredential)? {
        var options = global
        for (value, name) in [(options.token, "token"), (options.password, "password")] where value == "-" {
            guard let secret = SecretPrompt.readFromStandardInput() else {
                throw CLIError.message(
                    "No \(name) on stdin (--\(name) - reads its first line).", status: ExitStatus.usage)
            }
            if name == "token" { options.token = secret } else { options.password = secret }
        }
        if try options.resolveGateway(localDefault: false) == nil {
            // `login` alone on a terminal: the address is asked for, then the token as below.
            guard let address = askForAddress() else { return nil }
            options.url = address
        }
        guard let target = try options.resolveGateway() else { return nil }
        guard target.credential == .none else { return target }
        switch SecretPrompt.ask(
            "Gateway token for \(TerminalText.escapedLine(target.url.description)) (Enter for none): ")
        {
        case nil, .entered(""): return target
        case .entered(let token): return (target.url, .token(token))
        case .cancelled: throw ExitCode(ExitStatus.aborted)
        }
    }

    /// The gateway's address typed on a terminal (Enter for the local gateway); nil when stdin is no
    /// terminal. Ctrl-D stops the login.
    private func askForAddress() -> String? {
        guard isatty(STDIN_FILENO) == 1 else { return nil }
        let terminal = Terminal()
        terminal.write("Gateway address (Enter for \(LocalGatewayNote.address)): ")
        guard let line = readLine() else { return nil }
        let typed = line.trimming(.whitespaces)
        if let url = try? GatewayURL(parsing: typed), !url.isSecure, !url.isLoopback {
            terminal.errorLine(
                terminal.styled(
                    "\(TerminalText.escapedLine(url.description)) is not encrypted: the token would travel in clear "
                        + "text. Use wss:// for a gateway on another machine (Ctrl-C to stop).", .yellow))
        }
        return typed.isEmpty ? LocalGatewayNote.address : typed
    }

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
            "Paired with \(TerminalText.escapedLine(url.description)) (protocol \(session.protocolVersion.rawValue)) as device \(session.deviceId.prefix(12))…."
        )
        try save(url: url, credential: .none, terminal: terminal)
    }

    /// Saves the gateway under `--name` (else `--gateway`'s, else the current one's, else `default`) and
    /// makes it the current one.
    func save(url: GatewayURL, credential: GatewayCredential, terminal: Terminal) throws {
        var profiles = try global.profiles()
        let profileName = name ?? global.gatewayName ?? profiles.currentName ?? GatewayProfiles.legacyName
        profiles.save(GatewayProfile(name: profileName, url: url.absoluteString, credential: credential))
        let path = global.state.loginFile
        try profiles.save(to: path)
        terminal.line("Saved as '\(profileName)' in \(path) (readable by you only); it is now the current gateway.")
    }
}

/// `openclaw-chat logout`: forget the saved URL and secret, and the device tokens.
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        _superCommandName: OpenClawChatCommand.name,
        abstract: "Remove a saved gateway (the current one, or --gateway NAME) with its token and device tokens."
    )

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let terminal = Terminal()
        do {
            var profiles = try global.profiles()
            let tokens = FileDeviceTokenStore(path: global.state.deviceTokensFile)
            // `--url` names the gateway by address: its saved entry if there is one, else only its
            // device tokens (a gateway used with --url and never saved).
            let named = try global.url.map { try GatewayURL(parsing: $0) }
            let target = try named.map { profiles.profile(at: $0.storageIdentity) } ?? global.selectedProfile()
            guard let profile = target else {
                if let named {
                    try tokens.removeAll(gateway: named.storageIdentity)
                    terminal.line("No saved gateway has that address; its device tokens (if any) were removed.")
                } else {
                    terminal.line("Nothing to remove: no gateway is saved in \(global.state.path).")
                }
                return
            }
            let wasCurrent = profiles.currentName == profile.name
            profiles.remove(profile.name)
            try profiles.save(to: global.state.loginFile)
            // Device tokens are the address's, not the name's: another saved name for the same address
            // (perhaps one paired by setup code, with no secret of its own) still signs in with them.
            let identity = profile.address?.storageIdentity
            let sameAddress = identity.flatMap(profiles.profile(at:))
            var line: String
            if let identity, sameAddress == nil {
                try tokens.removeAll(gateway: identity)
                line = "Logged out of '\(profile.name)': its saved address, secret and device tokens were removed."
            } else {
                line = "Logged out of '\(profile.name)': its saved address and secret were removed."
                if let sameAddress {
                    line += " Its device tokens stay: '\(sameAddress.name)' has the same address"
                    line += " and signs in with them."
                }
            }
            if wasCurrent, let next = profiles.currentName { line += " The current gateway is now '\(next)'." }
            terminal.line(line)
        } catch {
            throw report(error, terminal: terminal)
        }
    }

}

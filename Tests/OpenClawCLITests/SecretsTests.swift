import Foundation
import OpenClawProtocol
import OpenClawTestGateway
import Testing

/// A whole session with every frame traced and debug logging on (issue 6 §5): the gateway token, the
/// device token the gateway issued and the device's private key appear in no output and in no file of
/// the state directory other than the credential files themselves.
@Suite("Secrets stay in the credential files")
struct SecretsTests {
    @Test func aTracedSessionLeaksNoSecret() async throws {
        let token = "tok-\(UUID().uuidString)"
        let gateway = try await TestGateway.start(TestGatewayConfiguration(auth: .token(token)))
        defer { Task { await gateway.stop() } }
        let state = CLIProcess.temporaryStateDirectory()
        let debug = ["--trace", "--verbose", "--state-dir", state]

        var outputs: [CLIProcess.Result] = []
        outputs.append(try await CLIProcess.run(["login", "--url", gateway.url, "--token", token] + debug))
        outputs.append(try await CLIProcess.run(["send"] + debug + ["please use a tool"]))
        outputs.append(try await CLIProcess.run(["history"] + debug))
        outputs.append(try await CLIProcess.run(["status", "--json"] + debug))
        outputs.append(try await CLIProcess.run(["chat"] + debug, stdin: "hello there\n/quit\n"))
        outputs.append(try await CLIProcess.run(["doctor"] + debug))
        for output in outputs { #expect(output.status == 0, "stderr: \(output.stderr)") }
        let everything = outputs.map { $0.stdout + "\n" + $0.stderr }.joined(separator: "\n")
        #expect(everything.contains("\"connect\""), "the trace must have been on")

        let secrets = try Self.secrets(token: token, state: state)
        #expect(secrets.count >= 4, "gateway token, device token and the private key in several encodings")
        for secret in secrets {
            #expect(!everything.contains(secret), "a secret appeared in the output")
        }

        let credentialFiles: Set<String> = [
            "identity/device.json", "credentials/device-tokens.json", "credentials/gateway.json",
        ]
        var checkedFiles = 0
        for file in try Self.files(under: state) where !credentialFiles.contains(file) {
            let contents = try Data(contentsOf: URL(fileURLWithPath: state + "/" + file))
            checkedFiles += 1
            for secret in secrets {
                #expect(contents.firstRange(of: Data(secret.utf8)) == nil, "a secret appeared in \(file)")
            }
        }
        print(
            "secrets test: \(secrets.count) secret forms, \(outputs.count) commands, \(checkedFiles) other files checked"
        )
    }

    /// The secrets as they could leak: as written, and the private key also in standard base64 and hex.
    private static func secrets(token: String, state: String) throws -> [String] {
        let parser = JSONParser()
        let identity = try parser.parse(try String(contentsOfFile: state + "/identity/device.json", encoding: .utf8))
        let privateKey = try #require(identity["privateKey"]?.stringValue)
        let seed = try #require(Base64URL.decode(privateKey))
        let deviceTokensText = try String(contentsOfFile: state + "/credentials/device-tokens.json", encoding: .utf8)
        let deviceTokens = Self.strings(in: try parser.parse(deviceTokensText), forKey: "token")
        #expect(!deviceTokens.isEmpty, "the gateway should have issued a device token")
        return [token, privateKey, Data(seed).base64EncodedString(), seed.map { String(format: "%02x", $0) }.joined()]
            + deviceTokens
    }

    private static func strings(in value: JSONValue, forKey key: String) -> [String] {
        switch value {
        case .object(let object):
            object.flatMap { name, member in
                name == key && member.stringValue != nil ? [member.stringValue ?? ""] : strings(in: member, forKey: key)
            }
        case .array(let array): array.flatMap { strings(in: $0, forKey: key) }
        default: []
        }
    }

    private static func files(under root: String) throws -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return [] }
        var files: [String] = []
        while let path = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory),
                !isDirectory.boolValue
            {
                files.append(path)
            }
        }
        return files
    }
}

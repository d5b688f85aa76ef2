import Foundation
import OpenClawGateway
import OpenClawProtocol

/// The gateway URL and shared secret saved by `openclaw-chat login`, in a 0600 file.
struct SavedLogin: Sendable, Equatable {
    var url: String
    var credential: GatewayCredential

    static func load(from path: String) throws -> SavedLogin? {
        guard let bytes = try SecureFile.read(path) else { return nil }
        guard let json = try? JSONParser().parse(bytes), let url = json["url"]?.stringValue else {
            throw CLIError.unreadableFile(path: path, reason: "not a saved login")
        }
        let credential: GatewayCredential
        if let token = json["token"]?.nonEmptyStringValue {
            credential = .token(token)
        } else if let password = json["password"]?.nonEmptyStringValue {
            credential = .password(password)
        } else {
            credential = .none
        }
        return SavedLogin(url: url, credential: credential)
    }

    func save(to path: String) throws {
        var members: [(String, JSONValue?)] = [("url", .string(url)), ("version", 1)]
        switch credential {
        case .token(let token): members.append(("token", .string(token)))
        case .password(let password): members.append(("password", .string(password)))
        // Single-use: never saved; the device token it earned is what later connects use.
        case .none, .bootstrapToken: break
        }
        try SecureFile.writeAtomically(JSONSerializer.bytes(.object(dropping: members)), to: path)
    }

    static func remove(at path: String) throws {
        try SecureFile.remove(path)
    }
}

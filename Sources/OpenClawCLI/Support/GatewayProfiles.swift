import OpenClawGateway
import OpenClawProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One saved gateway: a name to pick it by, its address and its shared secret (if any).
///
/// Device tokens, certificate pins and transcripts are not kept here: they are keyed by the gateway's
/// address everywhere (``GatewayURL/storageIdentity``, ``GatewayURL/tlsPinKey``), so every profile has
/// its own and a renamed or re-added profile finds them again.
struct GatewayProfile: Sendable, Equatable {
    var name: String
    var url: String
    var credential: GatewayCredential

    /// The saved address, parsed; nil when it no longer parses.
    var address: GatewayURL? { try? GatewayURL(parsingSaved: url) }
}

/// The saved gateways (`credentials/gateway.json`, mode 0600) and which one commands use by default.
///
/// Version 2 of the file. Version 1 held a single login (`{url, token|password}`); it is read as one
/// profile named `default`, made current, and rewritten as version 2 at that first read when the state
/// directory is writable (a read-only one keeps working from the old file), so existing state carries
/// over without loss.
struct GatewayProfiles: Sendable, Equatable {
    static let legacyName = "default"

    private(set) var profiles: [GatewayProfile] = []
    var currentName: String?

    var current: GatewayProfile? { currentName.flatMap { self[$0] } }
    var isEmpty: Bool { profiles.isEmpty }
    var names: [String] { profiles.map(\.name) }

    subscript(name: String) -> GatewayProfile? { profiles.first { $0.name == name } }

    /// The first saved gateway at this address (as device tokens and transcripts key it).
    func profile(at storageIdentity: String) -> GatewayProfile? {
        profiles.first { $0.address?.storageIdentity == storageIdentity }
    }

    /// The profile of that name, or the error every command gives for an unknown one (listing the saved
    /// names and how to add it).
    func named(_ name: String) throws -> GatewayProfile {
        guard let profile = self[name] else {
            let known = names.isEmpty ? "none is saved yet" : "saved: " + names.joined(separator: ", ")
            throw CLIError.message(
                "No saved gateway named '\(name)' (\(known)). Save one with 'openclaw-chat login --name \(name)'.",
                status: ExitStatus.usage)
        }
        return profile
    }

    /// Letters, digits, `.`, `_` and `-`, at most 64: safe in files, messages and shell commands.
    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 64
            && name.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                    || "._-".unicodeScalars.contains($0)
            }
    }

    /// Adds or replaces the profile of that name (kept sorted by name) and makes it current.
    mutating func save(_ profile: GatewayProfile) {
        profiles.removeAll { $0.name == profile.name }
        profiles.append(profile)
        profiles.sort { $0.name < $1.name }
        currentName = profile.name
    }

    /// Removes a profile; when it was current, the first remaining one becomes current.
    @discardableResult
    mutating func remove(_ name: String) -> GatewayProfile? {
        guard let index = profiles.firstIndex(where: { $0.name == name }) else { return nil }
        let removed = profiles.remove(at: index)
        if currentName == name { currentName = profiles.first?.name }
        return removed
    }

    // MARK: File

    /// Loads the list; a version 1 file is rewritten as version 2 at once (same login, now `default`),
    /// where it can be: a command that only reads (search, history) must not fail on a read-only
    /// directory.
    static func loadMigrating(from path: String) throws -> GatewayProfiles {
        let (profiles, isLegacy) = try read(path)
        if isLegacy { try? profiles.save(to: path) }
        return profiles
    }

    private static func read(_ path: String) throws -> (profiles: GatewayProfiles, isLegacy: Bool) {
        guard let bytes = try SecureFile.read(path) else { return (GatewayProfiles(), false) }
        guard let json = try? JSONParser().parse(bytes), json.objectValue != nil else {
            throw CLIError.unreadableFile(path: path, reason: "not a saved gateway list")
        }
        if json["gateways"] == nil, let url = json["url"]?.stringValue {
            // Version 1: the single saved login.
            let profile = GatewayProfile(name: legacyName, url: asSaved(url), credential: credential(in: json))
            return (GatewayProfiles(profiles: [profile], currentName: legacyName), true)
        }
        guard let entries = json["gateways"]?.objectValue else {
            throw CLIError.unreadableFile(path: path, reason: "not a saved gateway list")
        }
        var result = GatewayProfiles()
        for (name, entry) in entries {
            guard isValidName(name), let url = entry["url"]?.nonEmptyStringValue else { continue }
            result.profiles.append(GatewayProfile(name: name, url: asSaved(url), credential: credential(in: entry)))
        }
        result.profiles.sort { $0.name < $1.name }
        let current = json["current"]?.stringValue
        result.currentName = current.flatMap { result[$0] == nil ? nil : $0 } ?? result.profiles.first?.name
        return (result, false)
    }

    /// A saved address written with the port it was saved to mean: before `ws://host` meant 18789 it
    /// meant 80 (``GatewayURL/init(parsingSaved:)``), so every reader of the list parses it alike.
    private static func asSaved(_ url: String) -> String {
        (try? GatewayURL(parsingSaved: url))?.absoluteString ?? url
    }

    /// Writes the list (version 2); an empty list removes the file.
    func save(to path: String) throws {
        guard !profiles.isEmpty else {
            try SecureFile.remove(path)
            return
        }
        var entries: JSONObject = [:]
        for profile in profiles {
            var members: [(String, JSONValue?)] = [("url", .string(profile.url))]
            switch profile.credential {
            case .token(let token): members.append(("token", .string(token)))
            case .password(let password): members.append(("password", .string(password)))
            // A setup code's token is single-use: never saved.
            case .none, .bootstrapToken: break
            }
            entries[profile.name] = .object(dropping: members)
        }
        let file: JSONValue = .object(dropping: [
            ("version", 2), ("current", .string(currentName)), ("gateways", .object(entries)),
        ])
        try SecureFile.writeAtomically(JSONSerializer.bytes(file), to: path)
    }

    private static func credential(in json: JSONValue) -> GatewayCredential {
        if let token = json["token"]?.nonEmptyStringValue { return .token(token) }
        if let password = json["password"]?.nonEmptyStringValue { return .password(password) }
        return .none
    }
}

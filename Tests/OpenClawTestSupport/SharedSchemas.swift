import Foundation
import OpenClawProtocol

/// The one way tests read the shared protocol data (`shared/protocol/schema/`), so that a missing or
/// misplaced `shared` folder fails every test that needs it, with a message saying where it was looked for,
/// instead of letting a test skip itself and pass on a machine that never checked anything.
///
/// The folder is found from this file's location: the repository's sibling, `<repo>/../shared`, as the CI
/// lays it out (a clean clone with `shared` beside it, `.ci/run`), so tests work from any working directory.
/// `OPENCLAW_SHARED_DIR` (the `shared` folder itself) overrides it.
public enum SharedSchemas {
    public static let v3FileName = "v3-generated-2026-04-12.schema.json"
    public static let v3CommittedFileName = "v3-committed-2026-02-17.schema.json"
    public static let v4FileName = "v4-core-subset.schema.json"

    /// Every schema file, oldest first: what a client frame must fit whichever gateway it meets.
    public static let allFileNames = [v3CommittedFileName, v3FileName, v4FileName]

    public enum LoadError: Error, CustomStringConvertible {
        case sharedFolderMissing(path: String)
        case unreadable(path: String)
        case invalidJSON(path: String, reason: String)
        case noDefinition(name: String, path: String)

        public var description: String {
            switch self {
            case .sharedFolderMissing(let path):
                return "shared protocol data not found at \(path): put the `shared` folder beside the repository "
                    + "(<repo>/../shared, as CI does) or set OPENCLAW_SHARED_DIR to it"
            case .unreadable(let path): return "cannot read schema \(path) (is the `shared` folder complete?)"
            case .invalidJSON(let path, let reason): return "schema \(path) is not JSON: \(reason)"
            case .noDefinition(let name, let path): return "schema \(path) has no definition \(name)"
            }
        }
    }

    /// `<shared>/protocol/schema`.
    public static var directory: URL {
        if let override = ProcessInfo.processInfo.environment["OPENCLAW_SHARED_DIR"], !override.isEmpty {
            return URL(fileURLWithPath: override).appendingPathComponent("protocol/schema")
        }
        // <repo>/Tests/OpenClawTestSupport/SharedSchemas.swift → <repo>/../shared
        let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/protocol/schema")
    }

    /// The parsed schema file; throws (so the calling test fails) when the folder or file is missing.
    public static func load(_ fileName: String) throws -> JSONValue {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            throw LoadError.sharedFolderMissing(path: directory.path)
        }
        let url = directory.appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw LoadError.unreadable(path: url.path)
        }
        do {
            return try JSONParser().parse(Array(data))
        } catch {
            throw LoadError.invalidJSON(path: url.path, reason: "\(error)")
        }
    }

    /// The schema's `definitions[name]`; throws when the file lacks it, so a renamed definition is noticed.
    public static func definition(_ name: String, in fileName: String) throws -> JSONValue {
        guard let definition = try load(fileName)["definitions"]?[name] else {
            throw LoadError.noDefinition(name: name, path: directory.appendingPathComponent(fileName).path)
        }
        return definition
    }

    /// The validator for protocol `version` (3 → the generated v3 schema, 4 → the v4 core subset).
    public static func validator(forProtocol version: Int) throws -> JSONSchemaValidator {
        JSONSchemaValidator(document: try load(version >= 4 ? v4FileName : v3FileName))
    }
}

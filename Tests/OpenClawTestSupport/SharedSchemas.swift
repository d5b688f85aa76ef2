import Foundation
import OpenClawProtocol

/// Loads the protocol schemas from the repository's sibling `shared/protocol/schema/` folder.
///
/// The folder is found from this file's location (`<package>/../shared`), so tests work from any
/// working directory; `OPENCLAW_SHARED_DIR` (the `shared` folder itself) overrides it.
public enum SharedSchemas {
    public static let v3FileName = "v3-generated-2026-04-12.schema.json"
    public static let v4FileName = "v4-core-subset.schema.json"

    public enum LoadError: Error, CustomStringConvertible {
        case unreadable(path: String)
        case invalidJSON(path: String, reason: String)

        public var description: String {
            switch self {
            case .unreadable(let path): return "cannot read schema \(path) (set OPENCLAW_SHARED_DIR?)"
            case .invalidJSON(let path, let reason): return "schema \(path) is not JSON: \(reason)"
            }
        }
    }

    /// `<shared>/protocol/schema`.
    public static var directory: URL {
        if let override = ProcessInfo.processInfo.environment["OPENCLAW_SHARED_DIR"], !override.isEmpty {
            return URL(fileURLWithPath: override).appendingPathComponent("protocol/schema")
        }
        // <package>/Tests/OpenClawTestSupport/SharedSchemas.swift → <package>/../shared
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared/protocol/schema")
    }

    public static func load(_ fileName: String) throws -> JSONValue {
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

    /// The validator for protocol `version` (3 → the generated v3 schema, 4 → the v4 core subset).
    public static func validator(forProtocol version: Int) throws -> JSONSchemaValidator {
        JSONSchemaValidator(document: try load(version >= 4 ? v4FileName : v3FileName))
    }
}

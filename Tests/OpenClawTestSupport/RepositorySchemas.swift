import Foundation
import OpenClawProtocol

/// The protocol schemas kept in this repository (`Tests/Fixtures/protocol/`), written by us from
/// upstream's current definitions (see the README there). Found from this file's location, so tests
/// work from any working directory; a missing file throws, so the test that needs it fails.
public enum RepositorySchemas {
    /// The v4 definitions of every method this client calls or the test gateway serves.
    public static let v4CurrentFileName = "v4-current.schema.json"

    /// `<repo>/Tests/Fixtures/protocol`.
    public static var directory: URL {
        // <repo>/Tests/OpenClawTestSupport/RepositorySchemas.swift → <repo>/Tests/Fixtures/protocol
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/protocol")
    }

    /// The parsed schema file; throws when it is missing or not JSON.
    public static func load(_ fileName: String) throws -> JSONValue {
        let url = directory.appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw SharedSchemas.LoadError.unreadable(path: url.path)
        }
        do {
            return try JSONParser().parse(Array(data))
        } catch {
            throw SharedSchemas.LoadError.invalidJSON(path: url.path, reason: "\(error)")
        }
    }

    /// The validator whose definitions match what a gateway of protocol `version` accepts: the
    /// repository's current v4 schema for 4, the shared generated v3 schema for 3.
    public static func validator(forProtocol version: Int) throws -> JSONSchemaValidator {
        if version >= 4 { return JSONSchemaValidator(document: try load(v4CurrentFileName)) }
        return try SharedSchemas.validator(forProtocol: version)
    }
}

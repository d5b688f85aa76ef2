import OpenClawProtocol
import OpenClawTestSupport
import Testing

@testable import OpenClawTestGatewayCore

/// The test gateway's params shapes against the schema definitions, field by field and both ways: every
/// field the definition has is accepted, none it lacks is, and the required fields agree, nested
/// objects included. v3 is the shared generated v3 schema; v4 is the repository's current v4 schema.
@Suite("Test gateway: params shapes have exactly upstream's fields")
struct UpstreamFieldSetTests {
    struct Entry: Sendable, CustomStringConvertible {
        var method: String
        var definition: String
        var shape: @Sendable (Bool) -> ObjectShape
        var versions: [Int] = [3, 4]
        var description: String { method }
    }

    static let entries: [Entry] = [
        Entry(method: "connect", definition: "ConnectParams") { ProtocolShapes.connectParams(v4: $0) },
        Entry(method: "chat.history", definition: "ChatHistoryParams") { ProtocolShapes.chatHistoryParams(v4: $0) },
        Entry(method: "chat.send", definition: "ChatSendParams") { ProtocolShapes.chatSendParams(v4: $0) },
        Entry(method: "chat.abort", definition: "ChatAbortParams") { ProtocolShapes.chatAbortParams(v4: $0) },
        Entry(
            method: "chat.message.get", definition: "ChatMessageGetParams",
            shape: { _ in ProtocolShapes.chatMessageGetParams }, versions: [4]),
        Entry(method: "sessions.list", definition: "SessionsListParams") { ProtocolShapes.sessionsListParams(v4: $0) },
        Entry(method: "sessions.patch", definition: "SessionsPatchParams") {
            ProtocolShapes.sessionsPatchParams(v4: $0)
        },
        Entry(method: "sessions.reset", definition: "SessionsResetParams") {
            ProtocolShapes.sessionsResetParams(v4: $0)
        },
        Entry(
            method: "sessions.messages.subscribe", definition: "SessionsMessagesSubscribeParams",
            shape: { _ in ProtocolShapes.sessionsMessagesSubscribeParams }, versions: [4]),
        Entry(
            method: "sessions.messages.unsubscribe", definition: "SessionsMessagesUnsubscribeParams",
            shape: { _ in ProtocolShapes.sessionsMessagesUnsubscribeParams }, versions: [4]),
        Entry(method: "models.list", definition: "ModelsListParams") { ProtocolShapes.modelsListParams(v4: $0) },
        Entry(method: "agent.identity.get", definition: "AgentIdentityParams") { _ in ProtocolShapes.agentIdentityParams
        },
        Entry(method: "commands.list", definition: "CommandsListParams") { ProtocolShapes.commandsListParams(v4: $0) },
        Entry(
            method: "exec.approval.list", definition: "ExecApprovalListParams",
            shape: { _ in ProtocolShapes.emptyParams }, versions: [4]),
        Entry(method: "exec.approval.get", definition: "ExecApprovalGetParams") { _ in
            ProtocolShapes.execApprovalGetParams
        },
        Entry(method: "exec.approval.resolve", definition: "ExecApprovalResolveParams") {
            ProtocolShapes.execApprovalResolveParams(v4: $0)
        },
        Entry(
            method: "approval.get", definition: "ApprovalGetParams", shape: { _ in ProtocolShapes.approvalGetParams },
            versions: [4]),
        Entry(
            method: "approval.resolve", definition: "ApprovalResolveParams",
            shape: { _ in ProtocolShapes.approvalResolveParams }, versions: [4]),
        Entry(
            method: "approval.history", definition: "ApprovalHistoryParams",
            shape: { _ in ProtocolShapes.approvalHistoryParams }, versions: [4]),
        Entry(
            method: "question.list", definition: "QuestionListParams", shape: { _ in ProtocolShapes.emptyParams },
            versions: [4]),
        Entry(
            method: "question.get", definition: "QuestionGetParams", shape: { _ in ProtocolShapes.questionGetParams },
            versions: [4]),
        Entry(
            method: "artifacts.download", definition: "ArtifactsDownloadParams",
            shape: { _ in ProtocolShapes.artifactsDownloadParams }, versions: [4]),
        Entry(method: "node.list", definition: "NodeListParams") { _ in ProtocolShapes.emptyParams },
        Entry(method: "node.describe", definition: "NodeDescribeParams") { _ in ProtocolShapes.nodeDescribeParams },
        Entry(method: "node.invoke", definition: "NodeInvokeParams") { ProtocolShapes.nodeInvokeParams(v4: $0) },
        Entry(method: "node.invoke.result", definition: "NodeInvokeResultParams") { _ in
            ProtocolShapes.nodeInvokeResultParams
        },
        Entry(
            method: "node.invoke.progress", definition: "NodeInvokeProgressParams",
            shape: { _ in ProtocolShapes.nodeInvokeProgressParams }, versions: [4]),
        Entry(method: "node.event", definition: "NodeEventParams") { _ in ProtocolShapes.nodeEventParams },
        Entry(method: "device.pair.list", definition: "DevicePairListParams") { _ in ProtocolShapes.emptyParams },
        Entry(method: "device.pair.approve", definition: "DevicePairApproveParams") { _ in
            ProtocolShapes.pairApproveParams
        },
    ]

    static let cases: [(Entry, Int)] = entries.flatMap { entry in entry.versions.map { (entry, $0) } }

    @Test(arguments: cases)
    func fieldsMatchTheDefinition(entry: Entry, version: Int) throws {
        let validator = try RepositorySchemas.validator(forProtocol: version)
        let definition = try #require(
            validator.document["definitions"]?[entry.definition], "v\(version) schema has no \(entry.definition)")
        for problem in Self.differences(entry.shape(version >= 4), definition, document: validator.document, path: "") {
            Issue.record("v\(version) \(entry.method): \(problem)")
        }
    }

    /// Field-set and required-set differences between a shape and an object schema, recursively.
    static func differences(_ shape: ObjectShape, _ schema: JSONValue, document: JSONValue, path: String) -> [String] {
        let schema = resolved(schema, document: document)
        let properties = schema["properties"]?.objectValue ?? [:]
        let ours = Set(shape.fields.keys)
        let theirs = Set(properties.keys)
        var problems: [String] = []
        for name in theirs.subtracting(ours).sorted() {
            problems.append("\(path)/\(name): upstream accepts it, the test gateway refuses it")
        }
        for name in ours.subtracting(theirs).sorted() {
            problems.append("\(path)/\(name): the test gateway accepts it, upstream refuses it")
        }
        let required = Set(schema["required"]?.stringArrayValue ?? [])
        if required != shape.required {
            problems.append("\(path): required \(required.sorted()) upstream, \(shape.required.sorted()) here")
        }
        for name in ours.intersection(theirs).sorted() {
            guard let field = shape.fields[name], let nested = nestedShape(field), let property = properties[name],
                let object = objectBranch(property, document: document)
            else { continue }
            problems += differences(nested, object, document: document, path: "\(path)/\(name)")
        }
        return problems
    }

    static func nestedShape(_ field: ObjectShape.Field) -> ObjectShape? {
        switch field {
        case .object(let shape): return shape
        case .nullable(let inner): return nestedShape(inner)
        default: return nil
        }
    }

    /// The closed-object branch of a property (itself, or one `anyOf` branch beside `null`).
    static func objectBranch(_ schema: JSONValue, document: JSONValue) -> JSONValue? {
        let schema = resolved(schema, document: document)
        if schema["properties"] != nil { return schema }
        return schema["anyOf"]?.arrayValue?.lazy.map { resolved($0, document: document) }
            .first { $0["properties"] != nil }
    }

    static func resolved(_ schema: JSONValue, document: JSONValue) -> JSONValue {
        guard let reference = schema["$ref"]?.stringValue, reference.hasPrefix("#/definitions/") else { return schema }
        return document["definitions"]?[String(reference.dropFirst("#/definitions/".count))] ?? schema
    }
}

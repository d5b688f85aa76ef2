import OpenClawProtocol
import OpenClawTestGateway
import Synchronization

/// Validates every frame crossing a test gateway's sockets against the protocol schema of its version:
/// each request a client sends (the frame, then its method's params), each response (the frame, then
/// the result of the method it answers) and each event (the frame, then its payload).
///
/// Install it with `withValidatedTestGateway`, which fails the test when any frame does not validate or
/// any frame goes unchecked beyond `ProtocolFrameDefinitions.knownUnchecked(forProtocol:)`. Frames made
/// wrong on purpose are exempt by name, never by guess: a gateway quirk's altered frames, text injected
/// with `sendRaw`, and the exact requests a test lists as `InvalidOnPurpose`.
public final class FrameConformanceRecorder: Sendable {
    public struct Report: Sendable {
        /// One line per frame that does not validate: which frame, which definition, what is wrong.
        public var problems: [String] = []
        /// How many values each definition validated.
        public var checked: [String: Int] = [:]
        /// Methods, results and events seen whose upstream definition was not read (envelope checked only).
        public var unchecked: Set<String> = []
        /// Frames exempt on purpose, with the reason.
        public var exempted: [String] = []
    }

    private struct State {
        var report = Report()
        /// Per connection, the method of each request id still awaiting its response.
        var pending: [Int: [String: String]] = [:]
        /// Frames tapped but not yet validated: the tap only queues them, so the gateway is not slowed.
        var queued: [TappedFrame] = []
    }

    public let protocolVersion: Int
    private let validator: JSONSchemaValidator
    private let definitions: ProtocolFrameDefinitions
    private let invalidOnPurpose: [InvalidOnPurpose]
    private let allowedUnchecked: Set<String>
    private let state = Mutex(State())

    /// `invalidOnPurpose`: the requests the test sends wrong on purpose. `expectedUnchecked`: frames the
    /// test makes that have no definition besides the known ones (e.g. a request of an unknown method).
    public init(
        protocolVersion: Int, invalidOnPurpose: [InvalidOnPurpose] = [], expectedUnchecked: Set<String> = []
    ) throws {
        self.protocolVersion = protocolVersion
        validator = try RepositorySchemas.validator(forProtocol: protocolVersion)
        definitions = ProtocolFrameDefinitions.forProtocol(protocolVersion)
        self.invalidOnPurpose = invalidOnPurpose
        allowedUnchecked = ProtocolFrameDefinitions.knownUnchecked(forProtocol: protocolVersion)
            .union(expectedUnchecked)
    }

    /// The closure to set as `TestGatewayConfiguration.frameTap`.
    public var tap: @Sendable (TappedFrame) -> Void { { [self] frame in record(frame) } }

    /// Validates the frames tapped so far, in order, and returns everything found.
    public func report() -> Report {
        state.withLock { state in
            let frames = state.queued
            state.queued = []
            for frame in frames { check(frame, state: &state) }
            return state.report
        }
    }

    /// Throws a `FrameConformanceError` naming every frame that did not validate and every frame that
    /// went unchecked without being known to (no definition read, `ProtocolFrameDefinitions`).
    public func verify() throws {
        let report = report()
        let unknown = report.unchecked.subtracting(allowedUnchecked).sorted().map {
            "v\(protocolVersion) \($0): no definition, and not in ProtocolFrameDefinitions.knownUnchecked"
        }
        let problems = report.problems + unknown
        if !problems.isEmpty { throw FrameConformanceError(protocolVersion: protocolVersion, problems: problems) }
    }

    func record(_ frame: TappedFrame) {
        state.withLock { $0.queued.append(frame) }
    }

    private func check(_ frame: TappedFrame, state: inout State) {
        switch frame.origin {
        case .gateway: break
        case .alteredByQuirk, .injected:
            state.report.exempted.append("\(frame.origin) frame: \(Self.excerpt(frame.text))")
            return
        }
        guard let json = try? JSONParser().parse(Array(frame.text.utf8)) else {
            state.report.problems.append("\(frame.direction) frame is not JSON: \(Self.excerpt(frame.text))")
            return
        }
        let problems: [String]
        switch frame.direction {
        case .received: problems = checkRequest(json, connection: frame.connection, state: &state)
        case .sent: problems = checkOutbound(json, connection: frame.connection, state: &state)
        }
        for problem in problems {
            state.report.problems.append("v\(protocolVersion) \(problem)\n    frame: \(Self.excerpt(frame.text))")
        }
    }

    private func checkRequest(_ json: JSONValue, connection: Int, state: inout State) -> [String] {
        let method = json["method"]?.stringValue ?? "?"
        if invalidOnPurpose.contains(where: { $0.matches(json) }) {
            state.report.exempted.append("invalid on purpose: \(method) \(json["params"] ?? [:])")
            guard let params = definitions.methods[method]?.params,
                validator.validate(json["params"] ?? [:], definition: params).isEmpty
            else { return [] }
            return ["request \(method) is listed as invalid on purpose, but its params validate against \(params)"]
        }
        var problems = validate(json, "RequestFrame", label: "request \(method)", state: &state)
        if let id = json["id"]?.stringValue { state.pending[connection, default: [:]][id] = method }
        guard let params = definitions.methods[method]?.params else {
            state.report.unchecked.insert("params of \(method)")
            return problems
        }
        problems += validate(json["params"] ?? [:], params, label: "request \(method) params", state: &state)
        return problems
    }

    private func checkOutbound(_ json: JSONValue, connection: Int, state: inout State) -> [String] {
        switch json["type"]?.stringValue {
        case "res":
            let id = json["id"]?.stringValue ?? ""
            let method = state.pending[connection]?.removeValue(forKey: id) ?? "?"
            var problems = validate(json, "ResponseFrame", label: "response to \(method)", state: &state)
            guard json["ok"] == true, let payload = json["payload"] else { return problems }
            if method == "chat.history", protocolVersion >= 4, payload["kind"] != nil {
                let union: JSONValue = [
                    "anyOf": .array(
                        ProtocolFrameDefinitions.chatHistoryCursorResults.map { name -> JSONValue in
                            ["$ref": .string("#/definitions/\(name)")]
                        })
                ]
                state.report.checked["ChatHistoryCursorResult", default: 0] += 1
                problems += validator.validate(payload, against: union).map { "response to chat.history: \($0)" }
            } else if let result = definitions.methods[method]?.result {
                problems += validate(payload, result, label: "response to \(method)", state: &state)
            } else {
                state.report.unchecked.insert("result of \(method)")
            }
            return problems
        case "event":
            let event = json["event"]?.stringValue ?? "?"
            var problems = validate(json, "EventFrame", label: "event \(event)", state: &state)
            guard let definition = definitions.events[event] else {
                state.report.unchecked.insert("event \(event)")
                return problems
            }
            var payload = json["payload"] ?? .null
            // Live agent frames carry `sessionKey` beside the named schema's fields (upstream adds it
            // when it routes the event), as the shared schemas' notes say.
            if event == "agent", case .object(var members) = payload {
                members["sessionKey"] = nil
                payload = .object(members)
            }
            problems += validate(payload, definition, label: "event \(event) payload", state: &state)
            return problems
        default:
            return ["frame of unknown type"]
        }
    }

    private func validate(_ value: JSONValue, _ definition: String, label: String, state: inout State) -> [String] {
        state.report.checked[definition, default: 0] += 1
        return validator.validate(value, definition: definition).map { "\(label): \(definition) \($0)" }
    }

    private static func excerpt(_ text: String) -> String {
        text.count > 400 ? String(text.prefix(400)) + "…" : text
    }
}

/// Frames that did not validate against the protocol schema, one line each.
public struct FrameConformanceError: Error, CustomStringConvertible {
    public let protocolVersion: Int
    public let problems: [String]

    public var description: String {
        let shown = problems.prefix(20).joined(separator: "\n")
        let more = problems.count > 20 ? "\n… and \(problems.count - 20) more" : ""
        return "\(problems.count) frame(s) do not fit the v\(protocolVersion) schema:\n\(shown)\(more)"
    }
}

/// Runs `body` against a fresh test gateway whose every frame (client requests, responses, events)
/// is validated by `recorder` (a new one for the configuration's version when nil); throws a
/// `FrameConformanceError` after the body when any frame did not validate.
public func withValidatedTestGateway<T>(
    _ configuration: TestGatewayConfiguration = TestGatewayConfiguration(),
    recorder: FrameConformanceRecorder? = nil,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (TestGateway) async throws -> T
) async throws -> T {
    let recorder = try recorder ?? FrameConformanceRecorder(protocolVersion: configuration.protocolNumber)
    var configuration = configuration
    configuration.frameTap = recorder.tap
    let result = try await withTestGateway(configuration, isolation: isolation, body)
    try recorder.verify()
    return result
}

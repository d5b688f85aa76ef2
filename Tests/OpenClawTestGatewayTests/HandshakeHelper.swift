import OpenClawGateway
import OpenClawProtocol

/// Builds and sends `connect` the way a well-behaved client does, with a real signed device proof.
struct HandshakeHelper {
    var identity: DeviceIdentity? = DeviceIdentity(createdAtMs: 0)
    var client = ClientInfo(id: .cli, mode: .ui, version: "1.0.0", platform: "linux", deviceFamily: "server")
    var minProtocol = 3
    var maxProtocol = 4
    var role: GatewayRole = .operator
    var scopes = [OperatorScope.read, OperatorScope.write]
    var caps: [String] = []
    var auth: ConnectAuth? = ConnectAuth(token: "test-token")

    /// The connect params for `challenge`, signed when there is an identity.
    func params(for challenge: ConnectChallenge) throws -> JSONValue {
        let device = try identity?.proof(for: challenge, client: client, role: role, scopes: scopes, auth: auth)
        return ConnectParams(
            minProtocol: minProtocol, maxProtocol: maxProtocol, client: client, role: role, scopes: scopes,
            caps: caps, device: device, auth: auth
        ).json
    }

    /// Opens a socket, answers the challenge and returns the client with the connect response frame.
    func connect(to url: String, origin: String? = nil) async throws -> (RawGatewayClient, JSONValue) {
        let client = try await RawGatewayClient.connect(to: url, origin: origin)
        let challengeFrame = try await client.event("connect.challenge")
        guard let challenge = ConnectChallenge(json: challengeFrame["payload"]) else {
            throw ClientTimeout(waitingFor: "a valid challenge")
        }
        try await client.send(RequestFrame(id: "connect-1", method: "connect", params: try params(for: challenge)).json)
        let response = try await client.response(id: "connect-1")
        return (client, response)
    }

    /// Connects and requires `hello-ok`; returns the client and the hello payload.
    func open(_ url: String) async throws -> (RawGatewayClient, JSONValue) {
        let (client, response) = try await connect(to: url)
        guard response["ok"]?.boolValue == true, let hello = response["payload"] else {
            throw HandshakeFailed(response: response)
        }
        return (client, hello)
    }
}

struct HandshakeFailed: Error, CustomStringConvertible {
    var response: JSONValue
    var description: String { "connect failed: \(response)" }
}

extension RawGatewayClient {
    /// `chat.send` with the given idempotency key; returns the response frame.
    func chatSend(_ message: String, key: String, sessionKey: String = "main") async throws -> JSONValue {
        try await request(
            "chat.send",
            params: ["sessionKey": .string(sessionKey), "message": .string(message), "idempotencyKey": .string(key)]
        )
    }

    /// Waits for the terminal chat event of `runId`, wherever it is among the frames received.
    func terminalChat(runId: String, timeout: Duration = .seconds(10)) async throws -> JSONValue {
        try await anyFrame("the terminal chat event of \(runId)", timeout: timeout) { frame in
            frame["event"] == "chat" && frame["payload"]?["runId"]?.stringValue == runId
                && frame["payload"]?["state"] != "delta"
        }
    }

    /// Waits until some frame received so far (read or not) matches `predicate`.
    func anyFrame(
        _ what: String, timeout: Duration = .seconds(15), where predicate: @escaping @Sendable (JSONValue) -> Bool
    ) async throws -> JSONValue {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let frame = inbox.first(where: predicate) { return frame }
            try await Task.sleep(for: .milliseconds(2))
        }
        throw ClientTimeout(waitingFor: what)
    }

    /// Chat event payloads of `runId` received so far, in order.
    func chatPayloads(runId: String) -> [JSONValue] {
        frames.filter { $0["event"] == "chat" && $0["payload"]?["runId"]?.stringValue == runId }
            .compactMap { $0["payload"] }
    }
}

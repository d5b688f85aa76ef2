import OpenClawGateway
import OpenClawProtocol

/// Builds and sends `connect` the way a well-behaved client does, with a real signed device proof.
struct HandshakeHelper {
    var identity: DeviceIdentity? = DeviceIdentity(createdAtMs: 0)
    var client = ClientInfo(id: .cli, mode: .ui, version: "1.0.0", platform: "linux", deviceFamily: "server")
    var minProtocol = 3
    var maxProtocol = 4
    var role = "operator"
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
            "chat.send", params: ["sessionKey": .string(sessionKey), "message": .string(message), "idempotencyKey": .string(key)]
        )
    }

    /// Waits for the terminal chat event of `runId`.
    func terminalChat(runId: String, timeout: Duration = .seconds(10)) async throws -> JSONValue {
        try await event("chat", timeout: timeout) { frame in
            let state = frame["payload"]?["state"]?.stringValue
            return frame["payload"]?["runId"]?.stringValue == runId && state != "delta"
        }
    }

    /// Chat event payloads of `runId` received so far, in order.
    func chatPayloads(runId: String) -> [JSONValue] {
        frames.filter { $0["event"] == "chat" && $0["payload"]?["runId"]?.stringValue == runId }
            .compactMap { $0["payload"] }
    }
}

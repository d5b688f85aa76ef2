import OpenClawProtocol

/// Typed calls: a method named by its params type, its answer read as that method's response.
extension GatewayConnection {
    /// Calls `method` and returns its answer.
    ///
    /// Fails with a typed error when the gateway refuses the call, when it times out, when the connection
    /// ends before the answer, at once when the frame would exceed the gateway's `policy.maxPayload`, and
    /// with ``GatewayError/invalidResponse(method:reason:)`` when the answer is not what the method returns.
    /// A method no type here describes is called by conforming a params type of your own to
    /// `GatewayMethod` (in `OpenClawProtocol`).
    ///
    /// A call waits for no turn of the connection's actor (see `request(_:params:timeout:)`).
    nonisolated(nonsending) public func call<Method: GatewayMethod>(
        _ method: Method, timeout: Duration? = nil
    ) async throws(GatewayError) -> Method.Response {
        let payload = try await request(Method.method, params: method.json, timeout: timeout)
        guard let response = method.response(from: payload) else {
            throw .invalidResponse(method: Method.method, reason: "the answer is not what \(Method.method) returns")
        }
        return response
    }
}

import OpenClawAppModel
import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGatewayCore

extension DemoGateway {
    /// The test gateway's core with its scripted agent, in this process and in memory: no socket, no
    /// server library in the app, a one-off token.
    public static func inMemory() throws -> DemoGateway {
        let token = RequestID.make()
        var configuration = TestGatewayConfiguration()
        configuration.auth = .token(token)
        let gateway = TestGateway.inMemory(configuration)
        let url: GatewayURL
        do {
            url = try GatewayURL(parsing: gateway.url)
        } catch {
            // Unstructured: this factory is synchronous; the gateway it made and cannot hand over stops on its own.
            Task { await gateway.stop() }
            throw error
        }
        return DemoGateway(url: url, token: token, transport: gateway.inMemoryTransport()) { await gateway.stop() }
    }
}

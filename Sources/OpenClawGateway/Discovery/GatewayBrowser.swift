/// Browses the local network for gateway beacons: Network.framework on Apple platforms (the app's
/// live value), `avahi-browse` in the terminal on Linux, a scripted list in tests.
public protocol GatewayBrowser: Sendable {
    /// The gateways currently seen, the whole list again at every change, until the task is cancelled.
    func gateways() -> AsyncStream<[DiscoveredGateway]>
}

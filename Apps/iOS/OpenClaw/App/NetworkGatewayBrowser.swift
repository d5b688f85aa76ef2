#if canImport(Network)
    import Foundation
    import Network
    import OpenClawAppModel
    import OpenClawGateway

    /// The app's live ``GatewayBrowser``: Network.framework's Bonjour browser for `_openclaw-gw._tcp`.
    /// Thin on purpose: each result is resolved to its endpoint (a short TCP connection, cancelled once
    /// ready) and its TXT record handed to the package's `DiscoveryTXT`; every decision (what to
    /// show, what a tap does, what is never trusted) is `DiscoveryModel`'s, tested on Linux.
    struct NetworkGatewayBrowser: GatewayBrowser {
        func gateways() -> AsyncStream<[DiscoveredGateway]> {
            AsyncStream { continuation in
                let browser = NWBrowser(
                    for: .bonjourWithTXTRecord(type: DiscoveredGateway.serviceType, domain: "local."), using: .tcp)
                let queue = DispatchQueue(label: "ai.openclaw.discovery")
                browser.browseResultsChangedHandler = { results, _ in
                    Task {
                        var found: [DiscoveredGateway] = []
                        for result in results {
                            if let gateway = await Self.resolve(result, queue: queue) { found.append(gateway) }
                        }
                        continuation.yield(found)
                    }
                }
                browser.stateUpdateHandler = { state in
                    if case .failed = state { continuation.finish() }
                }
                continuation.onTermination = { _ in browser.cancel() }
                browser.start(queue: queue)
            }
        }

        /// The service's host and port, from a connection that is cancelled as soon as it is ready.
        private static func resolve(_ result: NWBrowser.Result, queue: DispatchQueue) async -> DiscoveredGateway? {
            guard case .service(let name, _, let domain, _) = result.endpoint else { return nil }
            var entries: [String] = []
            if case .bonjour(let record) = result.metadata {
                entries = record.dictionary.map { "\($0.key)=\($0.value)" }
            }
            let txt = DiscoveryTXT(entries: entries)
            guard txt.isGateway else { return nil }
            let endpoint: NWEndpoint? = await withCheckedContinuation { continuation in
                let connection = NWConnection(to: result.endpoint, using: .tcp)
                // The state handler and the timeout are `@Sendable` closures on Network's queue: only the
                // first outcome resumes, through a flag both can claim safely.
                let resumed = OneShot()
                connection.stateUpdateHandler = { state in
                    switch state {
                    case .ready:
                        guard resumed.claim() else { return }
                        continuation.resume(returning: connection.currentPath?.remoteEndpoint)
                        connection.cancel()
                    case .failed, .cancelled:
                        guard resumed.claim() else { return }
                        continuation.resume(returning: nil)
                    default: break
                    }
                }
                connection.start(queue: queue)
                queue.asyncAfter(deadline: .now() + 3) { if !resumed.isClaimed { connection.cancel() } }
            }
            guard case .hostPort(let host, let port)? = endpoint else { return nil }
            let hostText: String
            switch host {
            case .name(let name, _): hostText = name
            case .ipv4(let address): hostText = "\(address)"
            case .ipv6(let address): hostText = "\(address)"
            @unknown default: return nil
            }
            return DiscoveredGateway(
                serviceName: name, host: hostText.split(separator: "%").first.map(String.init) ?? hostText,
                port: Int(port.rawValue), domain: domain, txt: txt)
        }
    }
#endif

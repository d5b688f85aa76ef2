import OpenClawGateway

/// Several gateways: the settings list switches between the saved ones and removes them.
extension AppModel {
    /// The list as the store has it now.
    func reloadGateways() {
        do {
            gateways = try dependencies.credentials.loadAll()
        } catch {
            notice = error.description
        }
    }

    /// Talks to another saved gateway: its conversation replaces the current one (each gateway keeps its
    /// own transcripts, device token and pin, all keyed by its address).
    public func switchGateway(to url: GatewayURL) async {
        guard url != saved?.url else { return }
        do {
            var list = try dependencies.credentials.loadAll()
            guard list.select(url) else { return }
            try dependencies.credentials.saveAll(list)
            gateways = list
        } catch {
            notice = error.description
            return
        }
        settings.load(saved)
        notice = nil
        if let saved { await open(saved) }
    }

    /// Forgets a saved gateway's address and secret; the device identity and its pairing stay. When it
    /// was the current one, the next saved gateway opens, or onboarding when none is left.
    public func removeGateway(_ url: GatewayURL) async {
        let wasCurrent: Bool
        do {
            var list = try dependencies.credentials.loadAll()
            wasCurrent = list.currentURL == url
            list.remove(url)
            try dependencies.credentials.saveAll(list)
            gateways = list
        } catch {
            notice = error.description
            return
        }
        guard wasCurrent else { return }
        settings.load(saved)
        if let next = saved {
            await open(next)
        } else {
            await closeContext()
            screen = .onboarding
        }
    }
}

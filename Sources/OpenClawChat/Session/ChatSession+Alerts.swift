import OpenClawGateway

/// Alerts are kept by an `AlertLog`, so their ids and dismissal are tested as plain values; the view
/// model only forwards to it.
extension ChatSession {
    /// Removes the alert with this id, once the person has seen it.
    public func dismissAlert(_ id: Int) {
        alertLog.dismiss(id: id)
    }

    /// Removes every alert whose cause `isSettled` accepts: for a problem solved outside the chat (a
    /// pairing approved on the gateway host), whose alert would otherwise stay up after the fix. Decided
    /// by ``ChatAlert/cause``, so rewording a message cannot leave an alert behind.
    public func dismissAlerts(where isSettled: (ChatAlert.Cause) -> Bool) {
        alertLog.dismiss(where: isSettled)
    }

    func raise(_ error: GatewayError) {
        raise(message: error.message, nextStep: error.nextStep, cause: .gateway(error))
    }

    /// Adds an alert; the newest ``AlertLog/capacity`` are kept.
    func raise(message: String, nextStep: String?, cause: ChatAlert.Cause) {
        alertLog.raise(message: message, nextStep: nextStep, cause: cause)
    }
}

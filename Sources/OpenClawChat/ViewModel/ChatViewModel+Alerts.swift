extension ChatViewModel {
    /// Removes every alert whose cause `isSettled` accepts: for a problem solved outside the chat (a
    /// pairing approved on the gateway host), whose alert would otherwise stay up after the fix. Decided
    /// by ``ChatAlert/cause``, so rewording a message cannot leave an alert behind.
    public func dismissAlerts(where isSettled: (ChatAlert.Cause) -> Bool) {
        for alert in alerts where isSettled(alert.cause) {
            dismissAlert(alert.id)
        }
    }
}

/// The alerts a chat shows, newest last. Ids are never reused, so a screen dismissing the alert it
/// showed cannot remove a newer one that took its place; only the newest ``capacity`` are kept, so a
/// gateway refusing every retry cannot grow the list without bound. Dismissing by ``ChatAlert/Cause``
/// is how code clears alerts whose problem was settled elsewhere: never by their text.
struct AlertLog: Sendable, Equatable {
    /// How many alerts are kept; older ones are dropped as new ones arrive.
    static let capacity = 20

    private(set) var alerts: [ChatAlert] = []
    /// The last id given out; ids grow with every alert, dropped or dismissed ones included.
    private var lastID = 0

    /// Adds an alert and returns it.
    @discardableResult
    mutating func raise(message: String, nextStep: String?, cause: ChatAlert.Cause) -> ChatAlert {
        lastID += 1
        let alert = ChatAlert(id: lastID, message: message, nextStep: nextStep, cause: cause)
        alerts.append(alert)
        if alerts.count > Self.capacity { alerts.removeFirst(alerts.count - Self.capacity) }
        return alert
    }

    /// Removes the alert with this id; an id already gone changes nothing.
    mutating func dismiss(id: Int) {
        alerts.removeAll { $0.id == id }
    }

    /// Removes every alert whose cause `isSettled` accepts, leaving the others in order.
    mutating func dismiss(where isSettled: (ChatAlert.Cause) -> Bool) {
        alerts.removeAll { isSettled($0.cause) }
    }
}

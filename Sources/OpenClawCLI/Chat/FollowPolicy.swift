import OpenClawChat

/// How long following a run may wait, and on what.
struct FollowPolicy: Sendable {
    /// How long a one-shot command rides out a dropped connection before giving up.
    struct OfflineBound: Sendable {
        var attempts: Int
        var duration: Duration
    }

    /// Nil: wait for the connection to come back however long it takes (the person can type, quit,
    /// `/reconnect` meanwhile). Otherwise: give up after this many reconnect attempts or this long offline.
    var offlineBound: OfflineBound?
    /// Give up when the run has not ended after this long.
    var overallTimeout: Duration?
    /// Give up when nothing has happened (no text, no activity, no change of connection) for this long.
    var idleTimeout: Duration?
    /// How long a message handed to a live connection may go unacknowledged before giving up: a gateway
    /// that takes `chat.send` and never answers would otherwise hold the command while the outbox tries
    /// again, until the gateway could have forgotten the message (minutes). Nil: wait (the interactive
    /// chat, where the person decides).
    var ackWait: Duration?
    /// A run that ended unseen (events lost) and whose reply history does not show yet: how long to keep
    /// asking history. A v3 gateway names no run in flight, so its run may in fact still be going.
    var replyWait: Duration

    /// The interactive chat: input stays live meanwhile, so following never needs to give up.
    static let interactive = FollowPolicy(
        offlineBound: nil, overallTimeout: nil, idleTimeout: nil, ackWait: nil, replyWait: .seconds(8))

    /// `send`: three reconnect attempts within 30 s, then exit with a code a script can act on; an
    /// acknowledgement awaited as long as one `chat.send` request is (35 s).
    static func oneShot(overallTimeout: Duration?, idleTimeout: Duration?) -> FollowPolicy {
        FollowPolicy(
            offlineBound: OfflineBound(attempts: 3, duration: .seconds(30)),
            overallTimeout: overallTimeout,
            idleTimeout: idleTimeout,
            ackWait: ChatTimeouts().send,
            replyWait: .seconds(30)
        )
    }
}

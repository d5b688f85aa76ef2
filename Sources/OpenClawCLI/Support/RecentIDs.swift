/// The ids of the last `capacity` things seen, oldest forgotten first: "already printed" for a
/// chat that may run for days while a gateway closes approvals and questions without end. An id
/// forgotten this way is one whose outcome was printed hundreds of cards ago; printing it again is
/// the worst that can happen.
struct RecentIDs: Sendable {
    let capacity: Int
    private var members: Set<String> = []
    private var order: [String] = []
    private var start = 0

    init(capacity: Int = 512) {
        self.capacity = max(1, capacity)
    }

    /// Adds `id`; false when it was already there.
    mutating func insert(_ id: String) -> Bool {
        guard members.insert(id).inserted else { return false }
        order.append(id)
        if members.count > capacity {
            members.remove(order[start])
            start += 1
            // Drops the forgotten prefix now and then, so the order stays about as long as the set.
            if start >= capacity {
                order.removeFirst(start)
                start = 0
            }
        }
        return true
    }

    func contains(_ id: String) -> Bool { members.contains(id) }

    var count: Int { members.count }
}

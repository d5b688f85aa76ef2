/// The answers already given, by invoke id, so a repeated `node.invoke.request` (a gateway that
/// retries after a reconnect) gets the same answer instead of a second execution. Bounded: the oldest
/// answers are forgotten first.
struct AnsweredInvokes {
    let capacity: Int
    private var answers: [String: NodeInvokeResult] = [:]
    private var order: [String] = []

    init(capacity: Int = 1024) {
        self.capacity = max(1, capacity)
    }

    subscript(id: String) -> NodeInvokeResult? { answers[id] }

    mutating func insert(_ result: NodeInvokeResult) {
        if answers.updateValue(result, forKey: result.id) == nil { order.append(result.id) }
        while order.count > capacity {
            answers.removeValue(forKey: order.removeFirst())
        }
    }
}

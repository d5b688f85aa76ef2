/// An error worth showing, with what to do about it.
public struct ChatAlert: Sendable, Equatable, Identifiable {
    public let id: Int
    public let message: String
    public let nextStep: String?

    public init(id: Int, message: String, nextStep: String?) {
        self.id = id
        self.message = message
        self.nextStep = nextStep
    }
}

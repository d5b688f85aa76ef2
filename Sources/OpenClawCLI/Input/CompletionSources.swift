import Synchronization

/// What Tab can complete from, as the chat last learned it: commands (ours and the gateway's), session
/// keys, model ids. The chat writes it as it learns (start-up, `/sessions`, `/model`); the input thread
/// reads a copy at each Tab, so completing never waits for the network.
struct CompletionSources: Equatable, Sendable {
    /// A slash command without its `/`, and one line saying what it does.
    struct Command: Equatable, Sendable {
        var name: String
        var summary: String
    }

    var commands: [Command] = []
    var sessionKeys: [String] = []
    var modelIds: [String] = []
    /// Words `/think` takes.
    var thinkingWords: [String] = []

    /// The copy every part of the chat shares (one terminal, one input line).
    static let shared = Shared()

    final class Shared: Sendable {
        private let value = Mutex(CompletionSources())

        var current: CompletionSources { value.withLock { $0 } }

        func update(_ change: (inout CompletionSources) -> Void) {
            value.withLock { change(&$0) }
        }
    }
}

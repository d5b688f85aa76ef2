import Foundation
import Observation
import OpenClawChat

/// Searching what this device has stored of the gateway's conversations, as the user types.
///
/// Each keystroke restarts a short debounce, so only the query the user paused on reaches the store;
/// a result that arrives for an older query is dropped. Picking a result opens its session at that
/// message.
@MainActor
@Observable
public final class SearchModel {
    public var query = "" {
        didSet {
            if query != oldValue { scheduleSearch() }
        }
    }
    public private(set) var results: [SearchResultRow] = []
    public private(set) var isSearching = false
    public private(set) var problem: String?

    /// A finished search found nothing: say so (rather than show an empty list).
    public var showsNoResults: Bool {
        !isSearching && results.isEmpty && problem == nil && !Self.trimmed(query).isEmpty
    }

    @ObservationIgnored private let store: any ChatStore
    @ObservationIgnored private let chatScreen: ChatScreenModel
    @ObservationIgnored private let debounce: Duration
    @ObservationIgnored private let sleep: Sleep
    @ObservationIgnored private let limit: Int
    @ObservationIgnored private var pending: Task<Void, Never>?

    public init(
        store: any ChatStore,
        chatScreen: ChatScreenModel,
        debounce: Duration = .milliseconds(250),
        sleep: @escaping Sleep = { try await Task.sleep(for: $0) },
        limit: Int = 50
    ) {
        self.store = store
        self.chatScreen = chatScreen
        self.debounce = debounce
        self.sleep = sleep
        self.limit = limit
    }

    /// Opens the result's session at its message.
    public func select(_ result: SearchResultRow) async {
        await chatScreen.reveal(messageID: result.messageID, sessionKey: result.sessionKey)
    }

    public func cancel() {
        pending?.cancel()
        pending = nil
        isSearching = false
    }

    private func scheduleSearch() {
        pending?.cancel()
        let text = Self.trimmed(query)
        guard !text.isEmpty else {
            pending = nil
            results = []
            problem = nil
            isSearching = false
            return
        }
        isSearching = true
        // Unstructured, owned by the model: the next keystroke cancels it (the debounce).
        pending = Task { [weak self, sleep, debounce] in
            do {
                try await sleep(debounce)
            } catch {
                return
            }
            await self?.search(text)
        }
    }

    private static func trimmed(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func search(_ text: String) async {
        let gateway = chatScreen.chat.gatewayID
        do {
            let hits = try await store.search(text, gateway: gateway, limit: limit)
            guard !Task.isCancelled else { return }
            results = hits.map(SearchResultRow.init)
            problem = nil
        } catch {
            guard !Task.isCancelled else { return }
            results = []
            problem = "Search failed: \(error)"
        }
        isSearching = false
    }
}

import Foundation
import Observation
import OpenClawChat

/// Generated images for the chat screen: a bubble's image view asks ``load(_:)`` for its
/// `artifactId` when it appears and shows ``state(of:)``.
///
/// The bytes are fetched through `artifacts.download` each time they are needed and held in memory
/// only for the few images shown last (upstream: keep the reference, not the bytes or the short-lived
/// URL), so a long chat full of images never holds more than ``keptImages`` × 12 MiB.
@MainActor
@Observable
public final class GeneratedImages {
    public enum State: Sendable, Equatable {
        case loading
        /// The encoded image (PNG, JPEG …) for the platform's image decoder, with its type.
        case loaded(Data, mimeType: String?)
        /// Why it cannot be shown (an older gateway, too large, refused): the bubble shows this instead.
        case failed(String)
    }

    /// How many loaded images are kept; the oldest shown is dropped first and loads again if needed.
    public static let keptImages = 8

    public private(set) var states: [String: State] = [:]
    @ObservationIgnored private var loadedOrder: [String] = []
    @ObservationIgnored private let chat: ChatViewModel

    public init(chat: ChatViewModel) {
        self.chat = chat
    }

    public func state(of artifactId: String) -> State? { states[artifactId] }

    /// Fetches the image unless it is loaded or loading; a failed one is tried again.
    public func load(_ artifactId: String) async {
        switch states[artifactId] {
        case .loading, .loaded: return
        case .failed, nil: break
        }
        states[artifactId] = .loading
        switch await chat.session.artifactImage(artifactId) {
        case .success(let image):
            states[artifactId] = .loaded(image.data, mimeType: image.mimeType)
            loadedOrder.removeAll { $0 == artifactId }
            loadedOrder.append(artifactId)
            while loadedOrder.count > Self.keptImages { states[loadedOrder.removeFirst()] = nil }
        case .failure(let error):
            states[artifactId] = .failed(error.description)
        }
    }
}

import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reply text that grows by appends in amortized O(1), even when copies of the transcript are kept.
///
/// A plain `String` in a value type is copied whole on the next append whenever another copy of the
/// transcript still shares it — and a UI that publishes a snapshot after every delta always does —
/// so a long streamed reply would cost O(n²). Here the bytes live in an append-only storage that
/// copies share: each buffer value remembers how many UTF-8 bytes of the storage are its text, so an
/// append at the storage's end never disturbs an older copy, which still sees only its prefix. Only
/// a copy that appends after another copy already did (a divergent history) pays for a private copy.
/// Reading ``text`` materialises a `String` of the prefix, O(length), once per read.
struct TextBuffer: Sendable {
    private var storage: TextStorage
    /// UTF-8 length of this value's text: a prefix of the storage.
    private(set) var utf8Count: Int
    /// How many times the text was replaced rather than extended: a renderer that printed a prefix
    /// must start over when this changes.
    private(set) var revision = 0

    init(_ text: String = "") {
        storage = TextStorage(text)
        utf8Count = text.utf8.count
    }

    var isEmpty: Bool { utf8Count == 0 }

    var text: String { storage.prefix(utf8Count: utf8Count) }

    /// The first characters only, for one-line summaries of long text without materialising all of it.
    func prefix(utf8Limit: Int) -> String { storage.prefix(utf8Count: min(utf8Count, utf8Limit)) }

    mutating func append(_ piece: String) {
        guard !piece.isEmpty else { return }
        if let newCount = storage.append(piece, ifCountIs: utf8Count) {
            utf8Count = newCount
        } else {
            var copy = storage.prefix(utf8Count: utf8Count)
            copy.append(piece)
            let keptRevision = revision
            self = TextBuffer(copy)
            revision = keptRevision
        }
    }

    mutating func replace(with text: String) {
        let nextRevision = revision + 1
        self = TextBuffer(text)
        revision = nextRevision
    }

    /// Takes `text` as the whole new text: appended when it only extends the current text (a v3
    /// cumulative snapshot, a final equal to what streamed), so ``revision`` stays and a renderer
    /// prints only the new bytes; replaced otherwise. Costs one comparison of the current length
    /// (a memory compare, cheaper than the parse that produced `text`) plus the new bytes.
    mutating func set(_ text: String) {
        if text.utf8.count >= utf8Count, storage.hasPrefix(of: text, utf8Count: utf8Count) {
            append(String(decoding: text.utf8.dropFirst(utf8Count), as: UTF8.self))
        } else {
            replace(with: text)
        }
    }

    /// The text after the first `offset` UTF-8 bytes, in O(length of the result): what a streaming
    /// renderer has not printed yet.
    func suffix(fromUTF8Offset offset: Int) -> String {
        storage.slice(from: max(0, offset), to: utf8Count)
    }

    /// Whether both values read the same storage: appends at the end keep sharing, which is what
    /// makes them O(1) while other copies are alive.
    func sharesStorage(with other: TextBuffer) -> Bool { storage === other.storage }
}

extension TextBuffer: Hashable {
    static func == (lhs: TextBuffer, rhs: TextBuffer) -> Bool {
        if lhs.storage === rhs.storage && lhs.utf8Count == rhs.utf8Count { return true }
        return lhs.utf8Count == rhs.utf8Count && lhs.text == rhs.text
    }

    func hash(into hasher: inout Hasher) { hasher.combine(text) }
}

/// The shared bytes behind ``TextBuffer`` values. Guarded by a mutex because transcript copies
/// travel between actors (an engine appends while a UI reads an older snapshot).
private final class TextStorage: Sendable {
    private let text: Mutex<String>

    init(_ initial: String) { text = Mutex(initial) }

    /// Appends when the caller's view ends where the storage ends; returns the new length, or nil
    /// when another copy has appended first.
    func append(_ piece: String, ifCountIs expected: Int) -> Int? {
        text.withLock { text in
            guard text.utf8.count == expected else { return nil }
            text.append(piece)
            return text.utf8.count
        }
    }

    /// Whether the first `utf8Count` bytes of the storage are the first `utf8Count` bytes of `other`.
    func hasPrefix(of other: String, utf8Count count: Int) -> Bool {
        var other = other
        return text.withLock { text in
            guard text.utf8.count >= count, other.utf8.count >= count else { return false }
            if count == 0 { return true }
            let fast = text.withUTF8 { mine in
                other.withUTF8 { theirs in
                    guard let mine = mine.baseAddress, let theirs = theirs.baseAddress else { return false }
                    return memcmp(mine, theirs, count) == 0
                }
            }
            return fast
        }
    }

    func slice(from start: Int, to end: Int) -> String {
        text.withLock { text in
            let utf8 = text.utf8
            let upper = utf8.index(utf8.startIndex, offsetBy: min(end, utf8.count))
            let lower = utf8.index(utf8.startIndex, offsetBy: min(start, min(end, utf8.count)))
            return String(decoding: utf8[lower..<upper], as: UTF8.self)
        }
    }

    func prefix(utf8Count: Int) -> String {
        text.withLock { text in
            let end = text.utf8.index(text.utf8.startIndex, offsetBy: min(utf8Count, text.utf8.count))
            return String(decoding: text.utf8[..<end], as: UTF8.self)
        }
    }
}

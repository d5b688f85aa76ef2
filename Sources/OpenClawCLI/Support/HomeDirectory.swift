#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The current user's home directory, where `~` points: what `NSHomeDirectory()` returned (the same
/// path, from the same lookup), without corelibs Foundation.
enum HomeDirectory {
    static var path: String { FileManager.default.homeDirectoryForCurrentUser.path }
}

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What is at a path, as `FileManager.fileExists(atPath:isDirectory:)` says (symbolic links followed).
///
/// That call takes an `inout Bool` in FoundationEssentials and an `inout ObjCBool` in Apple's Foundation;
/// this is the one place that knows.
enum FileSystemEntry {
    case missing
    case file
    case directory

    init(atPath path: String) {
        #if canImport(FoundationEssentials)
            var isDirectory = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            self = !exists ? .missing : isDirectory ? .directory : .file
        #else
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            self = !exists ? .missing : isDirectory.boolValue ? .directory : .file
        #endif
    }
}

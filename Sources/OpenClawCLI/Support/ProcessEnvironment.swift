#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The process's environment, read once.
///
/// `ProcessInfo.environment` builds a new dictionary from `environ` on every call, and a command asked
/// for it five or six times on its way to the network (options, state folder, terminal, Markdown): a
/// cost paid at every start. The environment does not change while a command runs; tests that need
/// another pass their own dictionary where it is read.
enum ProcessEnvironment {
    static let current: [String: String] = ProcessInfo.processInfo.environment
}

import OpenClawChat
import OpenClawGateway
import OpenClawNode
import OpenClawProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs `avahi-browse` (Avahi's mDNS/DNS-SD browser, package `avahi-utils`) for the gateway beacon and
/// reads its parsable output. Linux only in practice; on a Mac, Bonjour browsing belongs to the app.
struct AvahiBrowser {
    enum Failure: Error {
        /// No `avahi-browse` on the PATH.
        case notInstalled
        /// It ran but failed (no daemon, for one); `detail` is what it printed on stderr.
        case failed(status: Int32, detail: String)
        case cannotStart(String)
    }

    /// The search path for the browser (the PATH of this process).
    var searchPath: String = ProcessEnvironment.current["PATH"] ?? "/usr/bin:/bin"
    /// The longest browse: `--terminate` normally ends it once the cache is dumped and resolved.
    var timeout: Duration = .seconds(5)

    func executable() -> String? {
        for directory in searchPath.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/avahi-browse"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// The gateways seen within ``timeout``; what was printed by then counts if it has to be stopped.
    func browse() async throws(Failure) -> [DiscoveredGateway] {
        guard let path = executable() else { throw .notInstalled }
        let request = ProcessRequest(
            executablePath: path, arguments: ["--resolve", "--parsable", "--terminate", DiscoveredGateway.serviceType],
            argv0: path, timeoutMs: Int((timeout / .milliseconds(1)).rounded(.up)),
            outputLimit: 4 << 20)
        let outcome: ProcessOutcome
        do {
            // Stdin is /dev/null; at the timeout the runner kills the browser's process group with SIGKILL
            // (SIGTERM was seen not to end it, and a SIGTERM ignored by whoever started this program stays
            // ignored in the browser).
            outcome = try await SubprocessRunner().run(request)
        } catch {
            throw .cannotStart(error.message)
        }
        // Stopped by the timeout (a signal): what it printed by then counts.
        guard outcome.exitCode == 0 || outcome.signal != nil || outcome.timedOut else {
            throw .failed(
                status: Int32(outcome.exitCode ?? -1), detail: outcome.stderr.trimming(.whitespacesAndNewlines))
        }
        return AvahiBrowseOutput.gateways(from: outcome.stdout)
    }
}

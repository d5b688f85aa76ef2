import Foundation
import OpenClawChat
import OpenClawGateway

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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["--resolve", "--parsable", "--terminate", DiscoveredGateway.serviceType]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw .cannotStart(String(describing: error))
        }
        // Blocking reads on threads of their own (on the cooperative pool they could take every thread,
        // the watchdog's included), both pipes at once so neither fills up and stalls the browser.
        async let printed = Self.readToEnd(output.fileHandleForReading)
        async let complaint = Self.readToEnd(errors.fileHandleForReading)
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        // SIGKILL: a signal ignored by whoever started this program stays ignored in the browser
        // (dispositions set to ignore survive exec), and SIGTERM was seen not to end it here.
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        let stoppedByUs = process.terminationReason == .uncaughtSignal
        guard process.terminationStatus == 0 || stoppedByUs else {
            throw .failed(
                status: process.terminationStatus,
                detail: String(decoding: await complaint, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            )
        }
        return AvahiBrowseOutput.gateways(from: String(decoding: await printed, as: UTF8.self))
    }

    private static func readToEnd(_ handle: FileHandle) async -> Data {
        await BlockingWork.run { handle.readDataToEndOfFile() }
    }
}

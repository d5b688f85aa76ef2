import Foundation

/// Finds a built product of this package (the `openclaw-chat` executable) next to the running test
/// bundle, so the subprocess tests run the binary of *this* build whatever its scratch path
/// (`swift test --scratch-path .build-x`), configuration or triple directory.
///
/// SwiftPM puts every product of a build in one directory, the test bundle included: on Linux the
/// bundle is an executable `<products>/<Package>PackageTests.xctest`, on macOS a bundle directory
/// `<products>/<Package>PackageTests.xctest/Contents/MacOS/<Package>PackageTests` loaded by `xctest`.
enum ProductLocator {
    /// `OPENCLAW_CHAT_BINARY` when set; else the first candidate products directory holding `name`;
    /// else `fallback`.
    static func locate(
        _ name: String,
        environment: [String: String],
        candidatePaths: [String],
        isExecutable: (String) -> Bool,
        fallback: URL
    ) -> URL {
        if let explicit = environment["OPENCLAW_CHAT_BINARY"], !explicit.isEmpty {
            return URL(fileURLWithPath: explicit)
        }
        for path in candidatePaths {
            guard let directory = productsDirectory(containing: path) else { continue }
            let candidate = directory.appendingPathComponent(name)
            if isExecutable(candidate.path) { return candidate }
        }
        return fallback
    }

    /// The products directory of a test bundle or executable path: the parent of the `.xctest`
    /// component when there is one, else the file's own directory. Nil for an empty path.
    static func productsDirectory(containing path: String) -> URL? {
        guard !path.isEmpty else { return nil }
        let url = URL(fileURLWithPath: path).standardizedFileURL
        var components = url.pathComponents
        if let bundleIndex = components.lastIndex(where: { $0.hasSuffix(".xctest") }) {
            components = Array(components[..<bundleIndex])
        } else {
            components.removeLast()
        }
        guard !components.isEmpty else { return nil }
        return URL(fileURLWithPath: NSString.path(withComponents: components), isDirectory: true)
    }

    /// Where the running test code may live, most specific first: the loaded `.xctest` bundles
    /// (macOS), this process's executable (`/proc/self/exe` on Linux), `Bundle.main`, `argv[0]`.
    static var runningTestPaths: [String] {
        var paths = Bundle.allBundles.map(\.bundlePath).filter { $0.hasSuffix(".xctest") }
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            paths.append(resolved)
        }
        if let main = Bundle.main.executablePath { paths.append(main) }
        if let first = CommandLine.arguments.first { paths.append(first) }
        return paths
    }
}

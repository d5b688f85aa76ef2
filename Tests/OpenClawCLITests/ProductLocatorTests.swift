import Foundation
import OpenClawApprovals
import Testing

@Suite("Finding the built binary")
struct ProductLocatorTests {
    let fallback = URL(fileURLWithPath: "/repo/.build/debug/openclaw-chat")

    @Test func theLinuxTestExecutableSitsInTheProductsDirectory() {
        let found = ProductLocator.locate(
            "openclaw-chat",
            environment: [:],
            candidatePaths: ["/repo/.build-x/x86_64-unknown-linux-gnu/debug/OpenClawPackageTests.xctest"],
            isExecutable: { $0 == "/repo/.build-x/x86_64-unknown-linux-gnu/debug/openclaw-chat" },
            fallback: fallback
        )
        #expect(found.path == "/repo/.build-x/x86_64-unknown-linux-gnu/debug/openclaw-chat")
    }

    @Test func aMacOSBundleIsLookedThroughToItsProductsDirectory() {
        let bundleExecutable =
            "/repo/.build-x/arm64-apple-macosx/release/OpenClawPackageTests.xctest/Contents/MacOS/OpenClawPackageTests"
        let found = ProductLocator.locate(
            "openclaw-chat",
            environment: [:],
            candidatePaths: ["/Applications/Xcode.app/Contents/Developer/usr/bin/xctest", bundleExecutable],
            isExecutable: { $0 == "/repo/.build-x/arm64-apple-macosx/release/openclaw-chat" },
            fallback: fallback
        )
        #expect(found.path == "/repo/.build-x/arm64-apple-macosx/release/openclaw-chat")
    }

    @Test func theEnvironmentOverridesAndNothingFoundFallsBack() {
        let overridden = ProductLocator.locate(
            "openclaw-chat", environment: ["OPENCLAW_CHAT_BINARY": "/opt/bin/openclaw-chat"],
            candidatePaths: ["/repo/.build/debug/OpenClawPackageTests.xctest"], isExecutable: { _ in true },
            fallback: fallback)
        #expect(overridden.path == "/opt/bin/openclaw-chat")
        let none = ProductLocator.locate(
            "openclaw-chat", environment: [:], candidatePaths: ["", "/usr/bin/xctest"], isExecutable: { _ in false },
            fallback: fallback)
        #expect(none == fallback)
    }

    @Test func thisRunFindsTheBinaryItIsAbout() {
        // The binary the subprocess tests run is the one built with this test bundle, or the one CI
        // names (the release build, installed from its package).
        #expect(FileManager.default.isExecutableFile(atPath: CLIProcess.binary.path))
        if let named = ProcessInfo.processInfo.environment["OPENCLAW_CHAT_BINARY"], !named.isEmpty {
            #expect(CLIProcess.binary.path == named)
            return
        }
        let directories = ProductLocator.runningTestPaths.compactMap(ProductLocator.productsDirectory(containing:))
        #expect(
            directories.map(\.path).contains(CLIProcess.binary.deletingLastPathComponent().standardizedFileURL.path))
    }
}

// swift-tools-version: 6.2
import PackageDescription

// The benchmark suite: a package of its own, so the main package's `swift test` never builds it.
// Run from the repository root: `swift run -c release --package-path Benchmarks openclaw-benchmarks`.

/// SwiftPM names a path dependency after its directory, so the root package's identity is the name of
/// the folder this repository was cloned into (`openclaw-client`, a worktree's name, ...).
let rootPackage =
    Context.packageDirectory.split(separator: "/").dropLast().last.map(String.init) ?? "openclaw-client"

let package = Package(
    name: "OpenClawBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        .executableTarget(
            name: "openclaw-benchmarks",
            dependencies: [
                .product(name: "OpenClawProtocol", package: rootPackage),
                .product(name: "OpenClawGateway", package: rootPackage),
                .product(name: "OpenClawChat", package: rootPackage),
                .product(name: "OpenClawTestGateway", package: rootPackage),
                .product(name: "OpenClawStore", package: rootPackage),
                .product(name: "Logging", package: "swift-log"),
                "CMallocInfo",
            ],
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("MemberImportVisibility"),
            ]
        ),
        // glibc's heap statistics (`mallinfo2`, `malloc_trim`), which Swift's Glibc module does not export.
        .target(name: "CMallocInfo"),
    ]
)

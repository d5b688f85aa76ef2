// swift-tools-version: 6.2
import PackageDescription

/// Strict settings shared by every target: Swift 6 language mode (the package default at this tools
/// version) plus the upcoming features that keep module boundaries honest.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "OpenClawClient",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "OpenClawProtocol", targets: ["OpenClawProtocol"]),
        .library(name: "OpenClawChat", targets: ["OpenClawChat"]),
        .library(name: "OpenClawApprovals", targets: ["OpenClawApprovals"]),
        .library(name: "OpenClawGateway", targets: ["OpenClawGateway"]),
        .library(name: "OpenClawTestGateway", targets: ["OpenClawTestGateway"]),
        .library(name: "OpenClawTestGatewayCore", targets: ["OpenClawTestGatewayCore"]),
        .library(name: "OpenClawStore", targets: ["OpenClawStore"]),
        .library(name: "OpenClawPresentation", targets: ["OpenClawPresentation"]),
        .library(name: "OpenClawAppModel", targets: ["OpenClawAppModel"]),
        .library(name: "OpenClawAppDemo", targets: ["OpenClawAppDemo"]),
        .library(name: "OpenClawNode", targets: ["OpenClawNode"]),
        .executable(name: "openclaw-chat", targets: ["openclaw-chat"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio-transport-services.git", from: "1.28.0"),
        .package(url: "https://github.com/swiftlang/swift-subprocess.git", from: "1.0.2"),
        .package(url: "https://github.com/apple/swift-system.git", from: "1.5.0"),
        // The transport's TLS (pinned certificates through NIOSSL's custom verification); the tests read the
        // test gateway's self-signed certificate back with X509.
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        // Builds the DocC catalogs (`swift package generate-documentation`); no code depends on it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // Wire types only: frames, errors, handshake and event payloads. No I/O, Foundation only.
        .target(
            name: "OpenClawProtocol",
            swiftSettings: strictSettings
        ),
        // The chat engine: the pure transcript reducer (deterministic, no I/O, no clocks), the outbox's
        // rules (pure), the chat client and the view model that drives them over a connection and a store;
        // exec approvals as an operator (the approvals client and queue, commands shown safely).
        .target(
            name: "OpenClawChat",
            dependencies: ["OpenClawProtocol", "OpenClawGateway"],
            swiftSettings: strictSettings
        ),
        // What the agent asks of a person: exec approvals and question cards, beside the chat.
        .target(
            name: "OpenClawApprovals",
            dependencies: ["OpenClawProtocol", "OpenClawGateway"],
            swiftSettings: strictSettings
        ),
        // The connection engine: transport, handshake, requests, events, liveness, identity, credentials.
        .target(
            name: "OpenClawGateway",
            dependencies: [
                "OpenClawProtocol",
                "CEnqueueHook",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOTransportServices", package: "swift-nio-transport-services"),
            ],
            swiftSettings: strictSettings
        ),
        // The Swift runtime's global-enqueue hook, found by the linker (NetworkThreads, Linux only).
        .target(name: "CEnqueueHook"),
        // The system's SQLite (libsqlite3-dev on Linux, the SDK's on Apple platforms), for the store.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // The chat store on SQLite: transcripts, full-text search, the outbox; corruption recovery.
        .target(
            name: "OpenClawStore",
            dependencies: [
                "OpenClawChat",
                "OpenClawProtocol",
                "CSQLite",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // The test gateway's protocol core: the hub (handshake, auth, pairing, chat, nodes), the scripted
        // agent, faults, and an in-memory transport. No networking library, so the app's demo and fast
        // tests run it without a socket.
        .target(
            name: "OpenClawTestGatewayCore",
            dependencies: [
                "OpenClawProtocol",
                "OpenClawGateway",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // The core on a real WebSocket (SwiftNIO) on 127.0.0.1, with TLS on request: what tests,
        // benchmarks and `openclaw-chat gateway`/`demo` use. Re-exports the core.
        .target(
            name: "OpenClawTestGateway",
            dependencies: [
                "OpenClawTestGatewayCore",
                "OpenClawProtocol",
                "OpenClawGateway",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: strictSettings
        ),
        // What a message looks like, shared by the app and the terminal: the message rows (steps, the
        // live line, badges, tool cards, the footer under a reply), the Markdown block model and parser,
        // and the words and durations of thinking and tool steps. Pure, no I/O.
        .target(
            name: "OpenClawPresentation",
            dependencies: ["OpenClawChat", "OpenClawProtocol"],
            swiftSettings: strictSettings
        ),
        // The iOS app's view models: every decision of the app, tested here; SwiftUI only renders them.
        .target(
            name: "OpenClawAppModel",
            dependencies: [
                "OpenClawProtocol",
                "OpenClawChat",
                "OpenClawApprovals",
                "OpenClawPresentation",
                "OpenClawGateway",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // The app's demo gateway: the test gateway's core in memory, kept out of the app's model.
        .target(
            name: "OpenClawAppDemo",
            dependencies: ["OpenClawAppModel", "OpenClawGateway", "OpenClawProtocol", "OpenClawTestGatewayCore"],
            swiftSettings: strictSettings
        ),
        // Node mode: this computer as an OpenClaw node (node.invoke, system.run under exec approvals).
        // swift-subprocess runs the commands; it supports macOS and Linux only (its manifest says iOS 99),
        // so the desktop command handlers compile only where it is available.
        .target(
            name: "OpenClawNode",
            dependencies: [
                "OpenClawProtocol",
                "OpenClawGateway",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(
                    name: "Subprocess", package: "swift-subprocess", condition: .when(platforms: [.linux, .macOS])),
                .product(
                    name: "SystemPackage", package: "swift-system", condition: .when(platforms: [.linux, .macOS])),
            ],
            swiftSettings: strictSettings
        ),
        // What a phone node needs (device facts, notifications, location, camera behind providers): parked,
        // built and tested, until the app runs as a node; the desktop node does not link it.
        .target(
            name: "OpenClawMobileNode",
            dependencies: ["OpenClawNode", "OpenClawProtocol", "OpenClawGateway"],
            swiftSettings: strictSettings
        ),
        // The terminal client's commands, as a library so the logic is testable without a process.
        .target(
            name: "OpenClawCLI",
            dependencies: [
                "OpenClawProtocol",
                "OpenClawChat",
                "OpenClawApprovals",
                "OpenClawPresentation",
                "OpenClawStore",
                "OpenClawGateway",
                "OpenClawTestGateway",
                "OpenClawNode",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "openclaw-chat",
            dependencies: ["OpenClawCLI", "OpenClawGateway"],
            swiftSettings: strictSettings
        ),
        // Examples of the package used as a library (the Getting started article shows them). Built with
        // everything else, so an API change that breaks them fails the build.
        .executableTarget(
            name: "ask-agent",
            dependencies: [
                "OpenClawChat", "OpenClawGateway", "OpenClawProtocol", .product(name: "Logging", package: "swift-log"),
            ],
            path: "Examples/AskAgent",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "follow-session",
            dependencies: [
                "OpenClawChat", "OpenClawGateway", "OpenClawProtocol", .product(name: "Logging", package: "swift-log"),
            ],
            path: "Examples/FollowSession",
            swiftSettings: strictSettings
        ),
        // Test helpers shared by the test targets: a small JSON Schema validator for the shared schemas,
        // and a hostile gateway (raw NIO WebSocket server) for bounds tests.
        .target(
            name: "OpenClawTestSupport",
            dependencies: [
                "OpenClawProtocol", "OpenClawGateway", "OpenClawTestGateway",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            path: "Tests/OpenClawTestSupport",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "OpenClawProtocolTests",
            dependencies: ["OpenClawProtocol", "OpenClawTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "OpenClawChatTests",
            dependencies: [
                "OpenClawChat", "OpenClawApprovals", "OpenClawProtocol", "OpenClawGateway", "OpenClawTestGateway",
                "OpenClawTestSupport",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "OpenClawStoreTests",
            dependencies: [
                "OpenClawStore", "OpenClawChat", "OpenClawProtocol", "OpenClawTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "OpenClawPresentationTests",
            dependencies: ["OpenClawPresentation", "OpenClawChat", "OpenClawProtocol"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "OpenClawAppModelTests",
            dependencies: [
                "OpenClawAppModel", "OpenClawAppDemo", "OpenClawApprovals", "OpenClawChat", "OpenClawGateway",
                "OpenClawPresentation",
                "OpenClawProtocol", "OpenClawStore", "OpenClawTestGateway", "OpenClawTestSupport",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "OpenClawCLITests",
            dependencies: [
                "openclaw-chat", "OpenClawCLI", "OpenClawApprovals", "OpenClawChat", "OpenClawGateway",
                "OpenClawPresentation", "OpenClawStore",
                "OpenClawProtocol",
                "OpenClawTestGateway", "OpenClawTestSupport",
            ],
            // Expected terminal output, read by path (`MarkdownGoldenTests`), not bundled.
            exclude: ["Markdown/Golden"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "OpenClawGatewayTests",
            dependencies: [
                "OpenClawProtocol", "OpenClawGateway", "OpenClawTestGateway", "OpenClawTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "OpenClawNodeTests",
            dependencies: [
                "OpenClawNode", "OpenClawMobileNode", "OpenClawProtocol", "OpenClawGateway", "OpenClawTestGateway",
                "OpenClawTestSupport",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "OpenClawTestGatewayTests",
            dependencies: [
                "OpenClawTestGateway", "OpenClawProtocol", "OpenClawGateway", "OpenClawTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            swiftSettings: strictSettings
        ),
    ]
)

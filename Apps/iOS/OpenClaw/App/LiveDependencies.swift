import Foundation
import OpenClawAppDemo
import OpenClawAppModel
import OpenClawChat
import OpenClawGateway
import OpenClawStore
import UIKit
import os

/// The app's real dependencies: the Keychain for secrets and the device identity, SQLite for the
/// transcripts and the outbox, the device's name and kind for pairing.
@MainActor
enum LiveDependencies {
    private static let log = Logger(subsystem: "ai.openclaw.client.ios", category: "startup")

    /// The user's "Approve the agent's commands" setting (Settings), read at launch.
    static let approvesCommandsKey = "approvesCommands"

    static func make() -> AppDependencies {
        let version = Bundle.main.object(forInfoDictionaryKey: "CFBundleShortVersionString") as? String ?? "0"
        let device = UIDevice.current
        // Pinned by the gateway at pairing: the kind of device, never its model or OS version.
        let family = device.userInterfaceIdiom == .pad ? "iPad" : "iPhone"
        #if DEBUG
            let recordsFrames = true
        #else
            let recordsFrames = false
        #endif
        let (chatStore, storeWarning) = makeChatStore()
        var dependencies = AppDependencies(
            credentials: KeychainCredentialStore(),
            identityStore: KeychainDeviceIdentityStore(),
            tokenStore: KeychainDeviceTokenStore(),
            chatStore: chatStore,
            client: AppClientIdentity.ios(version: version, displayName: device.name, deviceFamily: family),
            recordsFrames: recordsFrames
        )
        dependencies.storeWarning = storeWarning
        dependencies.approvesCommands = UserDefaults.standard.bool(forKey: approvesCommandsKey)
        // Certificate pins are fingerprints, not secrets: a 0600 file beside the chat store.
        if let directory = try? appSupportDirectory() {
            dependencies.tlsPinStore = FileTLSPinStore(path: directory.appendingPathComponent("tls-pins.json").path)
        }
        dependencies.gatewayBrowser = NetworkGatewayBrowser()
        // "Try the demo": the test gateway's core in memory, linked through OpenClawAppDemo only.
        dependencies.demoGateway = { try DemoGateway.inMemory() }
        return dependencies
    }

    /// The app's folder in Application Support, made on first use.
    private static func appSupportDirectory() throws -> URL {
        let directory = try FileManager.default.url(
            for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil, create: true
        ).appendingPathComponent("OpenClaw", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// The SQLite store in Application Support. If it cannot be opened the app still works, from
    /// memory: a chat that forgets at exit beats no chat. A damaged file was moved aside: the warning
    /// says so, with how many queued messages could not be recovered.
    private static func makeChatStore() -> (any ChatStore, String?) {
        do {
            let directory = try appSupportDirectory()
            let store = try SQLiteChatStore(path: directory.appendingPathComponent("chat.sqlite").path)
            return (store, store.recovery?.warning)
        } catch {
            log.error("chat store unavailable, keeping conversations in memory: \(String(describing: error))")
            return (InMemoryChatStore(), nil)
        }
    }
}

import Foundation
import OpenClawAppModel
import OpenClawStore
import Testing

/// A chat store recovered at launch with queued messages lost (issue 38.5): the app model's warning
/// says how many, until the person dismisses it.
@Suite("App: the damaged store's warning")
@MainActor
struct StoreWarningTests {
    @Test func theWarningSaysHowManyQueuedMessagesCouldNotBeRecovered() {
        let recovery = StoreRecovery(
            cause: .damaged, movedTo: URL(fileURLWithPath: "/tmp/chat.sqlite.corrupt-1"), recoveredMessages: 1,
            lostMessages: 1, lostMessagesAtMost: 3, detail: "SQLite error 11")
        var dependencies = AppHarness.dependencies()
        dependencies.storeWarning = recovery.warning
        let app = AppModel(dependencies: dependencies)
        let warning = app.storeWarning ?? ""
        #expect(warning.contains("1 queued message was recovered"), "\(warning)")
        #expect(warning.contains("Between 1 and 3 queued messages could not be recovered"), "\(warning)")
        app.dismissStoreWarning()
        #expect(app.storeWarning == nil)

        let exact = StoreRecovery(
            cause: .notADatabase, movedTo: URL(fileURLWithPath: "/tmp/x"), recoveredMessages: 0, lostMessages: 2,
            detail: "")
        #expect(exact.warning.contains("2 queued messages could not be recovered."))
        let none = StoreRecovery(
            cause: .emptied, movedTo: URL(fileURLWithPath: "/tmp/x"), recoveredMessages: 2, lostMessages: 0,
            detail: "")
        #expect(none.warning.contains("No queued message was lost."))
    }
}

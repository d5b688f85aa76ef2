import Foundation
import OpenClawGateway
import OpenClawTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The cross-process lock of record files (pins, device tokens) never stalls a reader, never hangs a
/// writer on a holder that does not let go, and leaves nothing behind for a change that changes nothing.
@Suite("Record file locks")
struct RecordFileLockTests {
    private static func directory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("openclaw-lock-\(UUID().uuidString)").path
    }

    @Test func aReaderDoesNotWaitWhileAnotherProcessHoldsTheLock() async throws {
        let folder = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/tls-pins.json"
        let pins = FileTLSPinStore(path: path)
        let pin = TLSPin(fingerprint: TLSFingerprint(certificateDER: Array("a certificate".utf8)))
        try pins.save(pin, for: "wss://a.example:443")
        // Another open file description: to flock, as good as another process.
        let holder = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        #expect(holder >= 0 && flock(holder, LOCK_EX) == 0)
        let saved = Mutex(false)
        Thread.detachNewThread {
            try? pins.save(pin, for: "wss://b.example:443")
            saved.withLock { $0 = true }
        }
        let read = Mutex<[String: TLSPin]?>(nil)
        Thread.detachNewThread {
            let all = try? pins.all()
            read.withLock { $0 = all }
        }
        #expect(await eventually { read.withLock { $0 } != nil }, "a read waited on the lock")
        #expect(read.withLock { $0 }?["wss://a.example:443"] == pin)
        // A holder that never lets go does not hang the writer: it goes on after its patience.
        #expect(await eventually(timeout: .seconds(10)) { saved.withLock { $0 } })
        close(holder)
        #expect(try pins.all().count == 2)
    }

    @Test func aChangeThatChangesNothingLeavesNoFiles() throws {
        let folder = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileTLSPinStore(path: folder + "/credentials/tls-pins.json").remove("wss://a.example:443")
        #expect(!FileManager.default.fileExists(atPath: folder))
    }
}

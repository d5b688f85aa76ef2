import Synchronization
import Testing

@testable import OpenClawGateway

/// A deadline around an operation that may ignore cancellation (a NIO connect): the caller moves on at
/// the deadline or at its own cancellation, and a late success is handed over rather than lost.
@Suite("First of an operation and its deadline")
struct FirstOfTests {
    @Test func anOperationInTimeGivesItsResult() async {
        let outcome = await firstOf(timeout: .seconds(3600)) { () async -> Result<Int, Never> in
            .success(7)
        } onLateSuccess: { _ in
        }
        #expect(outcome == .success(7))
    }

    @Test(.timeLimit(.minutes(1))) func theDeadlineEndsTheWaitAndALateSuccessIsHandedOver() async {
        let release = Release()
        let late = AsyncStream.makeStream(of: Int.self)
        let outcome = await firstOf(timeout: .milliseconds(20)) { () async -> Result<Int, Never> in
            await release.wait()
            return .success(9)
        } onLateSuccess: { value in
            late.continuation.yield(value)
        }
        #expect(outcome == nil)
        release.open()
        var lateValues = late.stream.makeAsyncIterator()
        #expect(await lateValues.next() == 9)
    }

    /// The socket open of a connection whose `disconnect()` cancels it must not wait for its timeout.
    @Test(.timeLimit(.minutes(1))) func theCallersCancellationEndsTheWait() async {
        let release = Release()
        let started = AsyncStream.makeStream(of: Void.self)
        // Past the time limit, so that a wait for the deadline fails the test rather than hanging it.
        let call = Task {
            await firstOf(timeout: .seconds(120)) { () async -> Result<Int, Never> in
                started.continuation.yield()
                await release.wait()
                return .success(1)
            } onLateSuccess: { _ in
            }
        }
        var startedEvents = started.stream.makeAsyncIterator()
        await startedEvents.next()
        call.cancel()
        #expect(await call.value == nil)
        release.open()
    }
}

/// Holds an operation that ignores cancellation until the test opens it.
private final class Release: Sendable {
    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let openAlready = state.withLock { state -> Bool in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if openAlready { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

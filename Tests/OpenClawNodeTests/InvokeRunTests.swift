import OpenClawProtocol
import OpenClawTestSupport
import Synchronization
import Testing

@testable import OpenClawNode

/// One invoke's race of its command, its deadline and the gateway's cancel: the first word is the answer
/// at once, even from a command that does not notice it was cancelled (a process outside its group that
/// keeps the output open), so neither the answer nor the node's concurrency slot waits for it.
@Suite("Invoke run: the first outcome is the answer")
struct InvokeRunTests {
    /// A command that ignores cancellation and ends only when opened.
    final class Gate: Sendable {
        private let waiter = Mutex<CheckedContinuation<Void, Never>?>(nil)
        private let opened = Mutex(false)

        func wait() async {
            await withCheckedContinuation { continuation in
                let openAlready = opened.withLock { $0 }
                if openAlready {
                    continuation.resume()
                } else {
                    waiter.withLock { $0 = continuation }
                }
            }
        }

        func open() {
            opened.withLock { $0 = true }
            waiter.withLock { $0.take() }?.resume()
        }
    }

    /// The outcome of `run`, once it comes (bounded: a run that waits for its command fails the test
    /// instead of holding it).
    private static func firstOutcome(
        of run: InvokeRun, releasing gate: Gate
    ) async -> Result<JSONValue, NodeInvokeError>? {
        let outcome = Mutex<Result<JSONValue, NodeInvokeError>??>(nil)
        let racing = Task {
            let first = await run.outcome()
            outcome.withLock { $0 = .some(first) }
        }
        _ = await eventually { outcome.withLock { $0 != nil } }
        let early = outcome.withLock { $0 }
        gate.open()
        await racing.value
        return early ?? nil
    }

    @Test func theDeadlineAnswersWithoutWaitingForAStubbornCommand() async {
        let gate = Gate()
        let run = InvokeRun(
            perform: {
                await gate.wait()
                return .success(.null)
            }, timeoutMs: 50, cancellation: AsyncStream<Void>.makeStream().stream)
        #expect(await Self.firstOutcome(of: run, releasing: gate) == .failure(.timedOut(afterMs: 50)))
    }

    @Test func theGatewaysCancelAnswersWithoutWaitingForAStubbornCommand() async {
        let gate = Gate()
        let (cancellation, cancel) = AsyncStream.makeStream(of: Void.self)
        let run = InvokeRun(
            perform: {
                await gate.wait()
                return .success(.null)
            }, timeoutMs: nil, cancellation: cancellation)
        cancel.yield()
        #expect(await Self.firstOutcome(of: run, releasing: gate) == .failure(.cancelled))
    }

    @Test func theCommandsOwnResultWinsWhenItComesFirst() async {
        let run = InvokeRun(
            perform: { .success(.string("done")) }, timeoutMs: 60_000,
            cancellation: AsyncStream<Void>.makeStream().stream)
        #expect(await run.outcome() == .success(.string("done")))
    }
}

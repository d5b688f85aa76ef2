import OpenClawProtocol

/// The ranges a gateway's `hello-ok.policy` is held to before anything uses it.
///
/// The policy is the gateway's word, and a broken or hostile gateway (or anyone in the middle of a
/// `ws://` connection) can say anything: a tick interval of 2⁶² ms overflowed the liveness arithmetic
/// and crashed every connect. Upstream gateways send 25 MiB, 50 MiB and 30 s (15 s in older docs);
/// the ranges leave real gateways untouched and keep every derived duration small enough to compute.
///
/// | field | range | default when absent |
/// |---|---|---|
/// | `maxPayload` | 1 KiB … 64 MiB | 25 MiB |
/// | `maxBufferedBytes` | 1 KiB … 1 GiB | 50 MiB |
/// | `tickIntervalMs` | 50 ms … 10 min | 30 s |
package enum PolicyBounds {
    /// A small limit only makes our own requests fail early (`payloadTooLarge`); a huge one is capped.
    package static let maxPayload: ClosedRange<Int> = 1024...(64 << 20)
    package static let maxBufferedBytes: ClosedRange<Int> = 1024...(1 << 30)
    package static let tickIntervalMs: ClosedRange<Int> = 50...600_000
    /// Tick intervals tolerated before a silent connection is questioned (see `tickTolerance`).
    package static let tickTolerance: ClosedRange<Int> = 1...10

    /// `policy` with every value moved into its range.
    package static func clamped(_ policy: HelloOk.Policy) -> HelloOk.Policy {
        var policy = policy
        policy.maxPayload = policy.maxPayload.clamped(to: maxPayload)
        policy.maxBufferedBytes = policy.maxBufferedBytes.clamped(to: maxBufferedBytes)
        policy.tickIntervalMs = policy.tickIntervalMs.clamped(to: tickIntervalMs)
        return policy
    }

    /// `hello` with its policy clamped: what the session keeps, so no later reader sees raw values.
    package static func clamped(_ hello: HelloOk) -> HelloOk {
        var hello = hello
        hello.policy = clamped(hello.policy)
        return hello
    }
}

extension Comparable {
    func clamped(to range: ClosedRange<Self>) -> Self { min(max(self, range.lowerBound), range.upperBound) }
}

import Crypto
import Synchronization

/// What an approval is bound to: exactly the command, directory, agent, session and environment of
/// a plan this node prepared. Upstream binds the same fields (its `systemRunBinding`).
public struct ExecPlanBinding: Sendable, Hashable {
    public var argv: [String]
    public var cwd: String?
    public var agentId: String?
    public var sessionKey: String?
    /// SHA-256 of the sorted `name=value` pairs: values are bound too, not only names.
    public var environmentHash: String
    /// The files behind the text: the resolved program and working directory with their identities
    /// (``SystemRunJudge/fileFingerprint(_:)``), so that a program swapped for a link to a shell, or a
    /// symlinked directory pointed elsewhere, after the approval is not what was approved.
    public var files: String

    public init(_ params: SystemRunParams, files: String = "") {
        self.files = files
        argv = params.argv
        cwd = params.cwd
        agentId = params.agentId
        sessionKey = params.sessionKey
        var hasher = SHA256()
        for (name, value) in params.env.sorted(by: { $0.key < $1.key }) {
            hasher.update(data: Array("\(name.utf8.count):\(name)=\(value.utf8.count):\(value);".utf8))
        }
        environmentHash = hasher.finalize().map { String($0, radix: 16) }.joined(separator: ".")
    }
}

/// The plans this node prepared (`system.run.prepare`) and has not run yet.
///
/// An approval that arrives in `system.run` is worth something only if it approves what this node
/// showed: the gateway routes, it does not authorize, and an `approved: true` written by an agent or
/// a forged invoke must not run anything. Each plan is used once, expires with the gateway's
/// approval window (30 minutes upstream), and records the policy it was prepared under, so an
/// approval given before the policy changed is asked again. Bounded: the oldest plans go first.
public final class PreparedPlans: Sendable {
    public static let lifetime = Duration.seconds(30 * 60)
    public static let capacity = 256

    public enum Match: Sendable, Hashable {
        case bound
        case notPrepared
        case expired
        case policyChanged
    }

    private struct Plan {
        var binding: ExecPlanBinding
        var policyHash: String
        var preparedAt: ContinuousClock.Instant
    }

    private let plans = Mutex<[Plan]>([])

    public init() {}

    public func record(
        _ binding: ExecPlanBinding, policyHash: String, at now: ContinuousClock.Instant = .now
    ) {
        plans.withLock { plans in
            plans.removeAll { $0.binding == binding || now - $0.preparedAt > Self.lifetime }
            plans.append(Plan(binding: binding, policyHash: policyHash, preparedAt: now))
            if plans.count > Self.capacity { plans.removeFirst(plans.count - Self.capacity) }
        }
    }

    /// Finds and consumes the plan for `binding`.
    public func take(
        _ binding: ExecPlanBinding, policyHash: String, at now: ContinuousClock.Instant = .now
    ) -> Match {
        plans.withLock { plans in
            guard let index = plans.firstIndex(where: { $0.binding == binding }) else { return .notPrepared }
            let plan = plans.remove(at: index)
            if now - plan.preparedAt > Self.lifetime { return .expired }
            return plan.policyHash == policyHash ? .bound : .policyChanged
        }
    }

    public var count: Int { plans.withLock { $0.count } }
}

import OpenClawGateway

/// One line of the "Test connection" list: every step of a diagnosis is listed from the start, and
/// fills in as the diagnosis reaches it, so the person sees where it is.
public struct DiagnosisRow: Sendable, Equatable, Identifiable {
    public enum State: Sendable, Equatable {
        case pending
        case running
        case passed
        case failed
        case skipped
    }

    public let kind: DiagnosisStepKind
    public let state: State
    public let detail: String?
    public let fix: String?

    public var id: String { kind.rawValue }
    public var title: String { kind.rawValue }

    /// Rows for every step: those reported so far, the next one running while `isRunning`, the rest pending.
    static func rows(for steps: [DiagnosisStep], isRunning: Bool) -> [DiagnosisRow] {
        var runningShown = false
        return DiagnosisStepKind.allCases.map { kind in
            if let step = steps.last(where: { $0.kind == kind }) {
                let state: State =
                    switch step.outcome {
                    case .passed: .passed
                    case .failed: .failed
                    case .skipped: .skipped
                    }
                return DiagnosisRow(kind: kind, state: state, detail: step.detail, fix: step.fix)
            }
            if isRunning, !runningShown {
                runningShown = true
                return DiagnosisRow(kind: kind, state: .running, detail: nil, fix: nil)
            }
            return DiagnosisRow(kind: kind, state: .pending, detail: nil, fix: nil)
        }
    }
}

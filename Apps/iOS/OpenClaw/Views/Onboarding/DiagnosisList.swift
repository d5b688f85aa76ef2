import OpenClawAppModel
import SwiftUI

/// The steps of a connection test, each with its outcome and, for a failure, the fix.
struct DiagnosisList: View {
    let rows: [DiagnosisRow]

    var body: some View {
        ForEach(rows) { row in
            HStack(alignment: .firstTextBaseline, spacing: 10) {
                icon(for: row.state)
                    .frame(width: 20)
                VStack(alignment: .leading, spacing: 2) {
                    Text(row.title).font(.subheadline.weight(.semibold))
                    if let detail = row.detail {
                        Text(detail).font(.caption).foregroundStyle(.secondary).textSelection(.enabled)
                    }
                    if let fix = row.fix {
                        Text(fix).font(.caption).foregroundStyle(.orange).textSelection(.enabled)
                    }
                }
            }
        }
    }

    @ViewBuilder
    private func icon(for state: DiagnosisRow.State) -> some View {
        switch state {
        case .pending: Image(systemName: "circle").foregroundStyle(.tertiary)
        case .running: ProgressView().controlSize(.small)
        case .passed: Image(systemName: "checkmark.circle.fill").foregroundStyle(.green)
        case .failed: Image(systemName: "xmark.octagon.fill").foregroundStyle(.red)
        case .skipped: Image(systemName: "minus.circle").foregroundStyle(.secondary)
        }
    }
}

import OpenClawAppModel
import SwiftUI

/// The last outcome or error of an approvals or questions action, one sentence and what to do next;
/// tapping it dismisses it.
struct NoticeBanner: View {
    let notice: ApprovalsModel.Notice
    let dismiss: @MainActor () -> Void

    var body: some View {
        Button(action: dismiss) {
            VStack(alignment: .leading) {
                Text(notice.message)
                if let next = notice.nextStep { Text(next).font(.caption) }
            }
            .frame(maxWidth: .infinity, alignment: .leading)
        }
        .padding(10)
        .background(notice.isError ? Color.red.opacity(0.15) : Color.green.opacity(0.15))
    }
}

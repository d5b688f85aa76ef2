import Foundation
import OpenClawAppModel
import SwiftUI

/// The gateway's sessions; picking one shows its conversation.
struct SessionsView: View {
    let sessions: SessionsModel
    @Environment(\.dismiss) private var dismiss

    var body: some View {
        NavigationStack {
            List(sessions.rows) { row in
                Button {
                    Task {
                        await sessions.select(row.key)
                        dismiss()
                    }
                } label: {
                    SessionRowView(row: row)
                }
                .foregroundStyle(.primary)
            }
            .overlay {
                if sessions.isRefreshing, sessions.rows.count <= 1 {
                    ProgressView()
                }
            }
            .refreshable { await sessions.refresh() }
            .task { await sessions.refresh() }
            .navigationTitle("Sessions")
            .navigationBarTitleDisplayMode(.inline)
            .toolbar {
                ToolbarItem(placement: .confirmationAction) {
                    Button("Done") { dismiss() }
                }
            }
        }
    }
}

private struct SessionRowView: View {
    let row: SessionRow

    var body: some View {
        HStack {
            VStack(alignment: .leading, spacing: 2) {
                Text(row.title).font(.headline).lineLimit(1)
                if let preview = row.preview {
                    Text(preview).font(.subheadline).foregroundStyle(.secondary).lineLimit(2)
                }
                if let updatedAtMs = row.updatedAtMs {
                    Text(Date(timeIntervalSince1970: Double(updatedAtMs) / 1000), style: .relative)
                        .font(.caption)
                        .foregroundStyle(.tertiary)
                }
            }
            Spacer()
            if row.isRunning {
                ProgressView()
            }
            if row.isCurrent {
                Image(systemName: "checkmark").foregroundStyle(.tint)
            }
        }
    }
}

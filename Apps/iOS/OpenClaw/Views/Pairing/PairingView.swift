import OpenClawAppModel
import OpenClawGateway
import SwiftUI
import UIKit

/// "Approve this device": the command to run on the gateway host, and the wait for it.
struct PairingView: View {
    let model: AppModel
    let pairing: PairingModel
    @State private var showingSettings = false

    var body: some View {
        NavigationStack {
            List {
                Section {
                    Text("The gateway wants to approve this device before it can chat. On the gateway host, run:")
                    Text(pairing.approveCommand)
                        .font(.system(.body, design: .monospaced))
                        .textSelection(.enabled)
                    Button {
                        UIPasteboard.general.string = pairing.approveCommand
                    } label: {
                        Label("Copy command", systemImage: "doc.on.doc")
                    }
                }
                Section {
                    status
                    if let problem = pairing.transientProblem {
                        Text(problem).font(.footnote).foregroundStyle(.secondary)
                    }
                    Button("I approved it") {
                        pairing.checkNow()
                    }
                    .disabled(!pairing.canCheckNow)
                }
                Section {
                    Button("Change gateway") {
                        model.editSettings()
                        showingSettings = true
                    }
                }
            }
            .navigationTitle("Approve this device")
            .sheet(isPresented: $showingSettings) {
                SettingsView(model: model)
            }
        }
    }

    @ViewBuilder
    private var status: some View {
        switch pairing.phase {
        case .waiting(let next):
            Label("Waiting for approval. Checking again in \(next.components.seconds) s.", systemImage: "hourglass")
        case .checking:
            HStack {
                ProgressView()
                Text("Checking…")
            }
        case .approved:
            Label("Approved.", systemImage: "checkmark.circle.fill").foregroundStyle(.green)
        case .failed(let error):
            Label(error.message, systemImage: "exclamationmark.triangle").foregroundStyle(.red)
        case .cancelled:
            EmptyView()
        }
    }
}

import OpenClawAppModel
import SwiftUI

/// The settings sheet: the saved gateways (switch, remove), the same gateway form (saving a new
/// address adds a gateway), the debug frames, sign out.
struct SettingsView: View {
    let model: AppModel
    @Environment(\.dismiss) private var dismiss
    @State private var confirmingSignOut = false
    @AppStorage(LiveDependencies.approvesCommandsKey) private var approvesCommands = false

    var body: some View {
        NavigationStack {
            Form {
                if model.gateways.entries.count > 1 {
                    GatewayListSection(model: model) { dismiss() }
                }
                GatewayFormSections(settings: model.settings)
                Section {
                    Button("Save and connect") {
                        Task {
                            if await model.saveSettings() { dismiss() }
                        }
                    }
                    .disabled(!model.settings.canSave)
                }
                Section {
                    Toggle("Approve the agent's commands", isOn: $approvesCommands)
                } footer: {
                    Text(
                        "Commands the gateway asks about appear here to allow or deny. Asks the gateway for "
                            + "operator.approvals; applies the next time the app starts."
                    )
                }
                if model.debugFrames.isEnabled {
                    Section("Debugging") {
                        NavigationLink("Frames on the wire") {
                            DebugFramesView(frames: model.debugFrames)
                        }
                    }
                }
                Section {
                    Button("Try the demo") {
                        dismiss()
                        Task { await model.startDemo() }
                    }
                }
                Section {
                    Button("Sign out", role: .destructive) {
                        confirmingSignOut = true
                    }
                } footer: {
                    Text(
                        "Forgets this gateway's address and token or password (the next saved gateway opens). "
                            + "This device stays paired with it.")
                }
            }
            .navigationTitle("Settings")
            .toolbar {
                ToolbarItem(placement: .cancellationAction) {
                    Button("Close") {
                        model.settings.cancelTest()
                        dismiss()
                    }
                }
            }
            .confirmationDialog("Sign out of this gateway?", isPresented: $confirmingSignOut) {
                Button("Sign out", role: .destructive) {
                    dismiss()
                    Task { await model.signOut() }
                }
            }
        }
    }
}

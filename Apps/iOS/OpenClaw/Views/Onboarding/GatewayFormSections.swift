import OpenClawAppModel
import OpenClawGateway
import SwiftUI

/// The gateway form, shared by onboarding and settings: address, secret, and "Test connection" with
/// its steps filling in live.
struct GatewayFormSections: View {
    @Bindable var settings: SettingsModel

    var body: some View {
        Section {
            TextField("ws://mini.local:18789", text: $settings.urlText)
                .keyboardType(.URL)
                .textContentType(.URL)
                .textInputAutocapitalization(.never)
                .autocorrectionDisabled()
            switch settings.address {
            case .empty:
                EmptyView()
            case .invalid(let problem):
                Text(problem).font(.footnote).foregroundStyle(.red)
            case .valid(let url, let caution):
                Text("Connects to \(url.description)").font(.footnote).foregroundStyle(.secondary)
                if let caution {
                    Label(caution, systemImage: "lock.open").font(.footnote).foregroundStyle(.orange)
                }
            }
        } header: {
            Text("Gateway address")
        } footer: {
            Text("The port defaults to 18789. Use wss:// for a gateway behind TLS.")
        }

        Section("Sign-in") {
            Picker("Credential", selection: $settings.credentialKind) {
                ForEach(SettingsModel.CredentialKind.allCases) { kind in
                    Text(kind.label).tag(kind)
                }
            }
            .pickerStyle(.segmented)
            if settings.credentialKind != .none {
                SecureField(settings.credentialKind.label, text: $settings.secret)
                    .textContentType(.password)
                    .textInputAutocapitalization(.never)
                    .autocorrectionDisabled()
            }
        }

        Section {
            Button {
                Task { await settings.testConnection() }
            } label: {
                if settings.isTesting {
                    HStack {
                        ProgressView()
                        Text("Testing…")
                    }
                } else {
                    Text("Test connection")
                }
            }
            .disabled(!settings.canTest)
            DiagnosisList(rows: settings.diagnosisRows)
            if let passed = settings.testPassed {
                Label(
                    passed ? "All checks passed." : "Fix the first failed step, then test again.",
                    systemImage: passed ? "checkmark.seal.fill" : "wrench.and.screwdriver"
                )
                .foregroundStyle(passed ? .green : .orange)
            }
        } footer: {
            Text("Checks the address, DNS, TCP, TLS, the WebSocket, the handshake, sign-in, pairing and permissions.")
        }

        if let error = settings.saveError {
            Section {
                Text(error).foregroundStyle(.red)
            }
        }
    }
}

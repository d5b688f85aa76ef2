import OpenClawAppModel
import SwiftUI

/// A self-signed gateway's certificate, shown so it can be compared with the one the gateway prints
/// before it is trusted. Every decision is `AppModel`'s; this only lays it out.
struct CertificateTrustSheet: View {
    let model: AppModel
    let request: CertificateTrustRequest

    var body: some View {
        NavigationStack {
            Form {
                Section {
                    Text("\(request.host) presents a certificate this device does not know yet.")
                    Text("Compare its fingerprint with the gateway's own before trusting it.")
                        .foregroundStyle(.secondary)
                }
                Section("SHA-256 fingerprint") {
                    Text(request.fingerprintGroups.joined(separator: " "))
                        .font(.system(.body, design: .monospaced))
                        .textSelection(.enabled)
                }
                if let problem = request.validityProblem() {
                    Section { Label(problem, systemImage: "exclamationmark.triangle").foregroundStyle(.orange) }
                }
                Section {
                    Button("Trust this certificate") { Task { await model.trustCertificate() } }
                        .disabled(request.validityProblem() != nil)
                    Button("Don't trust", role: .cancel) { model.declineCertificate() }
                }
            }
            .navigationTitle("New certificate")
        }
    }
}

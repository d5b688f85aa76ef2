import OpenClawAppModel
import SwiftUI

/// Shows the screen ``AppModel`` chose.
struct RootView: View {
    let model: AppModel

    var body: some View {
        screen
            .sheet(
                item: Binding(
                    get: { model.certificateTrust },
                    set: { if $0 == nil { model.declineCertificate() } })
            ) { request in
                CertificateTrustSheet(model: model, request: request)
            }
            // A damaged chat store was recovered at launch: said once, with the queued messages lost.
            .alert(
                "Chat history was damaged",
                isPresented: Binding(
                    get: { model.storeWarning != nil },
                    set: { if !$0 { model.dismissStoreWarning() } })
            ) {
                Button("OK") { model.dismissStoreWarning() }
            } message: {
                Text(model.storeWarning ?? "")
            }
    }

    @ViewBuilder private var screen: some View {
        switch model.screen {
        case .launching:
            ProgressView()
        case .onboarding:
            OnboardingView(model: model)
        case .pairing:
            if let pairing = model.pairing {
                PairingView(model: model, pairing: pairing)
            }
        case .chat:
            if let context = model.context {
                ChatView(model: model, context: context)
            }
        case .demo:
            if let demo = model.demo {
                DemoView(model: model, demo: demo)
            }
        }
    }
}

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

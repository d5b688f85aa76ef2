import OpenClawAppModel
import OpenClawGateway
import SwiftUI

/// The saved gateways: the current one checked, a tap switches (the sheet closes on the new chat), a
/// swipe removes. Every decision is `AppModel.switchGateway(to:)` / `removeGateway(_:)`.
struct GatewayListSection: View {
    let model: AppModel
    let close: () -> Void

    var body: some View {
        Section {
            ForEach(model.gateways.entries, id: \.url) { gateway in
                Button {
                    close()
                    Task { await model.switchGateway(to: gateway.url) }
                } label: {
                    HStack {
                        Text(gateway.url.description)
                            .foregroundStyle(.primary)
                        Spacer()
                        if gateway.url == model.gateways.currentURL {
                            Image(systemName: "checkmark")
                                .accessibilityLabel("Current gateway")
                        }
                    }
                }
            }
            .onDelete { offsets in
                let urls = offsets.map { model.gateways.entries[$0].url }
                Task {
                    for url in urls { await model.removeGateway(url) }
                }
            }
        } header: {
            Text("Gateways")
        } footer: {
            Text("Tap to switch; swipe to remove. Saving the form below with a new address adds a gateway.")
        }
    }
}

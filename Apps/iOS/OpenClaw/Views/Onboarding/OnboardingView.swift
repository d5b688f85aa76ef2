import OpenClawAppModel
import OpenClawGateway
import SwiftUI

/// First launch: the gateway's address and secret, a connection test, and the demo for those without
/// a gateway.
struct OnboardingView: View {
    let model: AppModel
    @State private var setupCode = ""
    @State private var scanning = false

    var body: some View {
        NavigationStack {
            Form {
                Section {
                    Text("Chat with the agent on your OpenClaw gateway — your home server or Mac mini.")
                        .foregroundStyle(.secondary)
                }
                if let notice = model.notice {
                    Section {
                        Label(notice, systemImage: "exclamationmark.triangle")
                            .foregroundStyle(.orange)
                    }
                }
                Section {
                    TextField("Setup code (oc-pair://…)", text: $setupCode, axis: .vertical)
                        .textInputAutocapitalization(.never)
                        .autocorrectionDisabled()
                    Button(model.isPairingWithCode ? "Pairing…" : "Pair with the code") {
                        Task { await model.pair(withSetupCode: setupCode) }
                    }
                    .disabled(setupCode.isEmpty || model.isPairingWithCode)
                    #if canImport(VisionKit) && canImport(UIKit)
                        if SetupCodeScanner.isAvailable {
                            Button("Scan the QR code") { scanning = true }
                                .disabled(model.isPairingWithCode)
                        }
                    #endif
                    if let error = model.settings.setupCodeError {
                        Text(error).foregroundStyle(.red)
                    }
                } header: {
                    Text("Setup code")
                } footer: {
                    Text("On the gateway host, `openclaw qr` shows one. It pairs this device once; no token is typed.")
                }
                if model.discovery.isAvailable, !model.discovery.found.isEmpty {
                    Section {
                        ForEach(model.discovery.found, id: \.self) { gateway in
                            Button {
                                model.discovery.use(gateway, in: model.settings)
                            } label: {
                                VStack(alignment: .leading) {
                                    Text(gateway.displayName)
                                    Text(gateway.url.description).font(.caption).foregroundStyle(.secondary)
                                }
                            }
                        }
                    } header: {
                        Text("On this network")
                    } footer: {
                        Text("Found by its announcement, which anyone on the network could send: check the address.")
                    }
                }
                GatewayFormSections(settings: model.settings)
                Section {
                    Button("Connect") {
                        Task { await model.saveSettings() }
                    }
                    .disabled(!model.settings.canSave)
                }
                Section {
                    Button("Try the demo") {
                        Task { await model.startDemo() }
                    }
                } header: {
                    Text("No gateway yet?")
                } footer: {
                    Text("Runs a scripted agent on this device. Nothing is sent anywhere.")
                }
            }
            .navigationTitle("OpenClaw")
            #if canImport(VisionKit) && canImport(UIKit)
                .sheet(isPresented: $scanning) {
                    SetupCodeScanner { code in
                        scanning = false
                        setupCode = code
                        Task { await model.pair(withSetupCode: code) }
                    }
                    .ignoresSafeArea()
                }
            #endif
            .onAppear { model.discovery.start() }
            .onDisappear { model.discovery.stop() }
        }
    }
}

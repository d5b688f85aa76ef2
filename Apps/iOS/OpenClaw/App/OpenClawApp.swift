import OpenClawAppModel
import SwiftUI

/// The app's entry point: builds the root model with the live dependencies and tells it when the app
/// comes to the foreground or goes to the background. Everything else is decided by ``AppModel``.
@main
struct OpenClawApp: App {
    @State private var model = AppModel(dependencies: LiveDependencies.make())
    @Environment(\.scenePhase) private var scenePhase

    var body: some Scene {
        WindowGroup {
            RootView(model: model)
                .task { await model.launch() }
        }
        .onChange(of: scenePhase) { _, phase in
            Task { await model.scenePhaseChanged(active: phase == .active) }
            if phase == .background { Task { await model.enteredBackground() } }
        }
    }
}

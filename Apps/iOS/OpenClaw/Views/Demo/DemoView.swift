import OpenClawAppModel
import SwiftUI

/// Demo mode: the chat against the in-process gateway once it runs.
struct DemoView: View {
    let model: AppModel
    let demo: DemoModel

    var body: some View {
        switch demo.phase {
        case .starting, .stopped:
            ProgressView("Starting the demo gateway…")
        case .failed(let message):
            ContentUnavailableView {
                Label("The demo could not start", systemImage: "exclamationmark.triangle")
            } description: {
                Text(message)
            } actions: {
                Button("Back") {
                    Task { await model.exitDemo() }
                }
            }
        case .running:
            if let context = demo.context {
                ChatView(model: model, context: context, demo: demo)
            }
        }
    }
}

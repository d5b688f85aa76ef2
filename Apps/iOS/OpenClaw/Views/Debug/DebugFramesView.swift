import Foundation
import OpenClawAppModel
import SwiftUI

/// The last frames on the wire, newest first, secrets already redacted; each expands to its JSON.
struct DebugFramesView: View {
    @Bindable var frames: DebugFramesModel

    var body: some View {
        List(Array(frames.frames.reversed())) { frame in
            DisclosureGroup {
                Text(frame.text)
                    .font(.system(.caption, design: .monospaced))
                    .textSelection(.enabled)
            } label: {
                HStack {
                    Image(systemName: frame.isInbound ? "arrow.down.left" : "arrow.up.right")
                        .foregroundStyle(frame.isInbound ? .blue : .green)
                    Text(frame.summary).font(.caption.monospaced())
                    Spacer()
                    Text(
                        Date(timeIntervalSince1970: Double(frame.recordedAtMs) / 1000),
                        format: .dateTime.hour().minute().second()
                    )
                    .font(.caption2)
                    .foregroundStyle(.secondary)
                }
            }
        }
        .navigationTitle("Frames (last \(frames.capacity))")
        .toolbar {
            ToolbarItemGroup(placement: .primaryAction) {
                Toggle(isOn: $frames.isPaused) {
                    Label("Pause", systemImage: "pause")
                }
                Button("Clear") { frames.clear() }
            }
        }
    }
}

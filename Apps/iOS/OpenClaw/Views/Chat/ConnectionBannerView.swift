import OpenClawAppModel
import SwiftUI

/// The strip above the conversation when the connection is not fine, with the button that helps.
struct ConnectionBannerView: View {
    let banner: ConnectionBanner
    let reconnect: @MainActor () -> Void
    let openSettings: @MainActor () -> Void

    var body: some View {
        HStack(alignment: .top, spacing: 10) {
            switch banner.style {
            case .progress: ProgressView()
            case .offline: Image(systemName: "wifi.slash").foregroundStyle(.secondary)
            case .problem: Image(systemName: "exclamationmark.triangle.fill").foregroundStyle(.orange)
            }
            VStack(alignment: .leading, spacing: 2) {
                Text(banner.message).font(.subheadline)
                if let detail = banner.detail {
                    Text(detail).font(.caption).foregroundStyle(.secondary)
                }
            }
            .textSelection(.enabled)
            Spacer(minLength: 0)
            switch banner.action {
            case .reconnect?: Button("Reconnect", action: reconnect).buttonStyle(.bordered)
            case .openSettings?: Button("Settings", action: openSettings).buttonStyle(.bordered)
            case nil: EmptyView()
            }
        }
        .padding(10)
        .background(.thinMaterial)
    }
}

import OpenClawAppModel
import OpenClawChat
import SwiftUI

/// The text field and its buttons: send, and stop while a reply runs.
struct ComposerBar: View {
    @Bindable var chat: ChatViewModel
    let screen: ChatScreenModel

    var body: some View {
        HStack(alignment: .bottom, spacing: 8) {
            TextField("Message", text: $chat.composerText, axis: .vertical)
                .lineLimit(1...6)
                .padding(.horizontal, 12)
                .padding(.vertical, 8)
                .background(Color(uiColor: .secondarySystemBackground), in: RoundedRectangle(cornerRadius: 18))
            if screen.showsStopButton {
                Button {
                    Task { await screen.stop() }
                } label: {
                    Image(systemName: "stop.circle.fill").font(.title)
                }
                .accessibilityLabel("Stop the reply")
            }
            Button {
                Task { await screen.send() }
            } label: {
                Image(systemName: "arrow.up.circle.fill").font(.title)
            }
            .disabled(!screen.canSend)
            .accessibilityLabel("Send")
        }
        .padding(.horizontal)
        .padding(.vertical, 8)
        .background(.bar)
    }
}

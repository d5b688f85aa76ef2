import OpenClawAppModel
import OpenClawChat
import OpenClawPresentation
import SwiftUI

/// The message list: bubbles oldest first, anchored at the bottom, older messages loaded at the top
/// (by scrolling there or pulling down), a button back to the latest when scrolled away.
struct ConversationView: View {
    let screen: ChatScreenModel

    var body: some View {
        ScrollViewReader { proxy in
            ScrollView {
                LazyVStack(spacing: 12) {
                    olderMessages
                    ForEach(screen.rows) { row in
                        MessageBubble(
                            row: row, isHighlighted: row.id == screen.highlightedRowID,
                            stepStart: row.liveActivity?.stepId.map { screen.stepClock.start(of: $0) }
                        ) { action in
                            Task { await screen.perform(action, on: row) }
                        }
                        .equatable()
                        .id(row.id)
                    }
                }
                .padding(.horizontal)
                .padding(.vertical, 8)
            }
            .defaultScrollAnchor(.bottom)
            .scrollDismissesKeyboard(.interactively)
            .refreshable { await screen.loadOlder() }
            .onScrollGeometryChange(for: Double.self) { geometry in
                Double(geometry.contentSize.height - geometry.visibleRect.maxY)
            } action: { _, distance in
                screen.scrolled(distanceFromBottom: distance)
            }
            .onChange(of: screen.scrollRequest) { _, request in
                guard let request else { return }
                withAnimation {
                    proxy.scrollTo(request.rowID, anchor: request.toBottom ? .bottom : .center)
                }
            }
            .onChange(of: screen.followMarker) { _, marker in
                guard marker != nil, let last = screen.rows.last else { return }
                proxy.scrollTo(last.id, anchor: .bottom)
            }
            .overlay(alignment: .bottomTrailing) {
                if screen.showsJumpToLatest {
                    Button {
                        screen.jumpToLatest()
                    } label: {
                        Image(systemName: "arrow.down.circle.fill")
                            .font(.largeTitle)
                            .symbolRenderingMode(.hierarchical)
                    }
                    .accessibilityLabel("Jump to the latest message")
                    .padding()
                }
            }
        }
    }

    @ViewBuilder
    private var olderMessages: some View {
        if screen.isLoadingOlder {
            ProgressView()
        } else if screen.reachedBeginning {
            Text("Beginning of the conversation").font(.caption).foregroundStyle(.secondary)
        } else if screen.canLoadOlder {
            // Reaching the top loads the next page.
            Color.clear
                .frame(height: 1)
                .onAppear {
                    Task { await screen.loadOlder() }
                }
        }
    }
}

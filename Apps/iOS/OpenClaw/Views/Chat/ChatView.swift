import OpenClawAppModel
import OpenClawChat
import OpenClawGateway
import OpenClawPresentation
import SwiftUI

/// The chat: the conversation, the connection banner, the composer, and the way to sessions, search
/// and settings. In demo mode the settings button becomes "Exit demo".
struct ChatView: View {
    let model: AppModel
    let context: ChatContext
    var demo: DemoModel?

    @State private var showingSessions = false
    @State private var showingSearch = false
    @State private var showingSettings = false
    @State private var showingApproval = false

    var body: some View {
        @Bindable var screen = context.chatScreen
        NavigationStack {
            ConversationView(screen: screen)
                .safeAreaInset(edge: .top, spacing: 0) {
                    VStack(spacing: 0) {
                        if let banner = screen.banner {
                            ConnectionBannerView(
                                banner: banner,
                                reconnect: { Task { await model.reconnect() } },
                                openSettings: {
                                    model.editSettings()
                                    showingSettings = true
                                }
                            )
                        }
                        if let approvals = context.approvals {
                            ApprovalBanner(approvals: approvals) { showingApproval = true }
                        }
                    }
                }
                .safeAreaInset(edge: .bottom, spacing: 0) {
                    VStack(spacing: 0) {
                        if demo != nil, screen.rows.isEmpty {
                            DemoSuggestions(chat: context.chat)
                        }
                        if let questions = context.questions, !questions.shown.isEmpty {
                            QuestionCardsView(questions: questions)
                        }
                        ComposerBar(chat: context.chat, screen: screen)
                    }
                }
                .navigationTitle(screen.title)
                .navigationBarTitleDisplayMode(.inline)
                .toolbar { toolbar }
                .sheet(isPresented: $showingSessions) {
                    SessionsView(sessions: context.sessions)
                }
                .sheet(isPresented: $showingSearch) {
                    SearchView(search: context.search)
                }
                .sheet(isPresented: $showingSettings) {
                    SettingsView(model: model)
                }
                .sheet(isPresented: $showingApproval) {
                    if let approvals = context.approvals, let card = approvals.presented {
                        ApprovalSheet(approvals: approvals, card: card)
                    }
                }
                .onChange(of: context.approvals?.presented?.id) { _, id in
                    // A new request opens the sheet; the last one closing (decided anywhere) closes it.
                    showingApproval = id != nil
                }
                .alert("Something went wrong", isPresented: $screen.isShowingAlert, presenting: screen.currentAlert) {
                    _ in
                    Button("OK", role: .cancel) {}
                } message: { alert in
                    Text([alert.message, alert.nextStep].compactMap { $0 }.joined(separator: "\n\n"))
                }
        }
    }

    @ToolbarContentBuilder
    private var toolbar: some ToolbarContent {
        ToolbarItem(placement: .topBarLeading) {
            Button {
                showingSessions = true
            } label: {
                Label("Sessions", systemImage: "list.bullet")
            }
        }
        ToolbarItemGroup(placement: .topBarTrailing) {
            Button {
                showingSearch = true
            } label: {
                Label("Search", systemImage: "magnifyingglass")
            }
            if demo != nil {
                Button("Exit demo") {
                    Task { await model.exitDemo() }
                }
            } else {
                Button {
                    model.editSettings()
                    showingSettings = true
                } label: {
                    Label("Settings", systemImage: "gearshape")
                }
            }
        }
    }
}

/// The demo's example messages, shown until the first one is sent.
private struct DemoSuggestions: View {
    let chat: ChatViewModel

    var body: some View {
        ScrollView(.horizontal, showsIndicators: false) {
            HStack {
                ForEach(DemoModel.suggestions, id: \.self) { suggestion in
                    Button(suggestion) {
                        Task { await chat.session.send(suggestion) }
                    }
                    .buttonStyle(.bordered)
                }
            }
            .padding(.horizontal)
            .padding(.vertical, 6)
        }
    }
}

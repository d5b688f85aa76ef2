import OpenClawAppModel
import OpenClawApprovals
import OpenClawChat
import OpenClawProtocol
import SwiftUI

/// The agent's questions over the composer: each open card with its options and a text field where
/// the question takes one's own words, then Send and Skip; a card answered anywhere locks with what
/// happened. The rules (what can be sent) are `QuestionDraft`'s; the view lays out and forwards taps.
struct QuestionCardsView: View {
    let questions: QuestionsModel

    var body: some View {
        VStack(spacing: 8) {
            ForEach(questions.shown) { card in
                QuestionCardView(questions: questions, card: card)
            }
            if let notice = questions.notice {
                NoticeBanner(notice: notice) { questions.dismissNotice() }
            }
        }
        .padding(.horizontal, 10)
    }
}

/// One card: open (answerable) or locked (its summary).
struct QuestionCardView: View {
    let questions: QuestionsModel
    let card: QuestionCard
    @State private var draft = QuestionDraft()

    var body: some View {
        VStack(alignment: .leading, spacing: 8) {
            HStack {
                Label("The agent asks", systemImage: "questionmark.bubble.fill")
                    .font(.headline)
                Spacer()
                if !card.isLocked {
                    TimelineView(.periodic(from: .now, by: 1)) { _ in
                        Text(card.question.countdown(at: .now))
                            .font(.caption)
                            .monospacedDigit()
                    }
                }
            }
            ForEach(card.questions, id: \.questionId) { asked in
                QuestionFields(asked: asked, isLocked: card.isLocked, draft: $draft)
            }
            if let summary = card.summary {
                HStack {
                    Text(summary)
                        .font(.callout)
                        .foregroundStyle(.secondary)
                    Spacer()
                    Button("Dismiss") { questions.dismiss(card) }
                }
            } else {
                HStack {
                    Button("Skip") {
                        Task { await questions.skip(card) }
                    }
                    Spacer()
                    Button("Send") {
                        guard case .success(let answers) = draft.answers(for: card) else { return }
                        Task { await questions.answer(card, answers.answers) }
                    }
                    .disabled(!draft.isComplete(for: card))
                }
                .disabled(questions.answering.contains(card.id))
            }
        }
        .padding(12)
        .background(Color.yellow.opacity(0.15))
    }
}

/// One question of a card: its header and text, its options, and a field for one's own words.
private struct QuestionFields: View {
    let asked: AskedQuestion
    let isLocked: Bool
    @Binding var draft: QuestionDraft

    var body: some View {
        VStack(alignment: .leading, spacing: 4) {
            if !asked.header.isEmpty {
                Text(asked.header).font(.subheadline).bold()
            }
            Text(asked.question)
            ForEach(asked.options, id: \.label) { option in
                Button {
                    draft.choose(option.label, in: asked)
                } label: {
                    Label {
                        VStack(alignment: .leading) {
                            Text(option.label)
                            if let description = option.description {
                                Text(description).font(.caption).foregroundStyle(.secondary)
                            }
                        }
                    } icon: {
                        Image(systemName: draft.isChosen(option.label, in: asked) ? "checkmark.circle.fill" : "circle")
                    }
                }
                .disabled(isLocked)
            }
            if asked.acceptsFreeText, !isLocked {
                let text = Binding(get: { draft.text(of: asked) }, set: { draft.type($0, in: asked) })
                if asked.isSecret {
                    SecureField(asked.options.isEmpty ? "Your answer" : "Or your own answer", text: text)
                } else {
                    TextField(asked.options.isEmpty ? "Your answer" : "Or your own answer", text: text)
                }
            }
        }
    }
}

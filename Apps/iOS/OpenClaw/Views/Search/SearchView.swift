import Foundation
import OpenClawAppModel
import OpenClawChat
import SwiftUI

/// Searching the conversations stored on this device; a result opens its session at the message.
struct SearchView: View {
    @Bindable var search: SearchModel
    @Environment(\.dismiss) private var dismiss

    var body: some View {
        NavigationStack {
            List {
                if let problem = search.problem {
                    Text(problem).foregroundStyle(.red)
                }
                ForEach(search.results) { result in
                    Button {
                        Task {
                            await search.select(result)
                            dismiss()
                        }
                    } label: {
                        VStack(alignment: .leading, spacing: 4) {
                            Text(result.sessionKey).font(.caption).foregroundStyle(.secondary)
                            snippet(result.parts).lineLimit(3)
                        }
                    }
                    .foregroundStyle(.primary)
                }
            }
            .overlay {
                if search.isSearching, search.results.isEmpty {
                    ProgressView()
                } else if search.showsNoResults {
                    ContentUnavailableView.search(text: search.query)
                }
            }
            .searchable(text: $search.query, placement: .navigationBarDrawer(displayMode: .always), prompt: "Messages")
            .navigationTitle("Search")
            .navigationBarTitleDisplayMode(.inline)
            .toolbar {
                ToolbarItem(placement: .confirmationAction) {
                    Button("Done") { dismiss() }
                }
            }
        }
    }

    /// The snippet with its matches in bold.
    private func snippet(_ parts: [SearchResultRow.Part]) -> Text {
        var text = AttributedString()
        for part in parts {
            var piece = AttributedString(part.text)
            if part.isMatch { piece.inlinePresentationIntent = .stronglyEmphasized }
            text += piece
        }
        return Text(text)
    }
}

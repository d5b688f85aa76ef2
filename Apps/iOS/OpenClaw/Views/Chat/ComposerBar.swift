import OpenClawAppModel
import OpenClawChat
import OpenClawPresentation
import OpenClawProtocol
import PhotosUI
import SwiftUI
import UIKit
import UniformTypeIdentifiers

/// The text field and its buttons: attach (photos, files), send, and stop while a reply runs. Chosen
/// files show above the field with a remove button; one refused is explained there at once.
struct ComposerBar: View {
    @Bindable var chat: ChatViewModel
    let screen: ChatScreenModel
    @State private var pickedPhotos: [PhotosPickerItem] = []
    @State private var importing = false

    var body: some View {
        VStack(alignment: .leading, spacing: 6) {
            if let refusal = screen.attachments.refusal {
                Label(refusal, systemImage: "exclamationmark.triangle")
                    .font(.footnote)
                    .foregroundStyle(.orange)
                    .onTapGesture { screen.attachments.dismissRefusal() }
            }
            if !screen.attachments.isEmpty {
                ScrollView(.horizontal, showsIndicators: false) {
                    HStack {
                        ForEach(screen.attachments.drafts) { draft in
                            DraftChip(draft: draft) { screen.attachments.remove(draft.id) }
                        }
                    }
                }
            }
            HStack(alignment: .bottom, spacing: 8) {
                Menu {
                    PhotosPicker(selection: $pickedPhotos, maxSelectionCount: 10, matching: .images) {
                        Label("Photos", systemImage: "photo.on.rectangle")
                    }
                    Button {
                        importing = true
                    } label: {
                        Label("Files", systemImage: "doc")
                    }
                } label: {
                    Image(systemName: "paperclip").font(.title2)
                }
                .accessibilityLabel("Attach")
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
        }
        .padding(.horizontal)
        .padding(.vertical, 8)
        .background(.bar)
        .onChange(of: pickedPhotos) { _, items in
            guard !items.isEmpty else { return }
            pickedPhotos = []
            Task { await attachPhotos(items) }
        }
        .fileImporter(isPresented: $importing, allowedContentTypes: [.item], allowsMultipleSelection: true) { result in
            guard case .success(let urls) = result else { return }
            Task { await attachFiles(urls) }
        }
    }

    /// The picker hands over bytes and a content type, never a name: ``ComposerAttachments`` names them.
    private func attachPhotos(_ items: [PhotosPickerItem]) async {
        let pickedAt = Date()
        for (index, item) in items.enumerated() {
            guard let data = try? await item.loadTransferable(type: Data.self) else { continue }
            let type = item.supportedContentTypes.first
            let name = ComposerAttachments.photoFileName(
                pickedAt: pickedAt, index: index, fileExtension: type?.preferredFilenameExtension)
            await screen.attachments.attach(
                bytes: [UInt8](data), fileName: name, declaredMimeType: type?.preferredMIMEType)
        }
    }

    /// Imported files are outside the sandbox: each is copied into the app's temporary folder while its
    /// security-scoped access lasts, and the copy is what gets sent (and kept by the outbox).
    private func attachFiles(_ urls: [URL]) async {
        for url in urls {
            let granted = url.startAccessingSecurityScopedResource()
            defer { if granted { url.stopAccessingSecurityScopedResource() } }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
            let copy = folder.appendingPathComponent(url.lastPathComponent)
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try FileManager.default.copyItem(at: url, to: copy)
            } catch {
                screen.attachments.refuse(
                    .unreadable(fileName: url.lastPathComponent, reason: error.localizedDescription))
                continue
            }
            await screen.attachments.attach(fileAt: copy)
        }
    }
}

/// A chosen file above the composer: a thumbnail for a photo (made once, small, off the main thread),
/// its label otherwise, and a remove button.
private struct DraftChip: View {
    let draft: ComposerAttachments.Draft
    let remove: @MainActor () -> Void
    @State private var thumbnail: UIImage?

    var body: some View {
        HStack(spacing: 4) {
            if let thumbnail {
                Image(uiImage: thumbnail)
                    .resizable()
                    .scaledToFill()
                    .frame(width: 44, height: 44)
                    .clipShape(RoundedRectangle(cornerRadius: 6))
                    .accessibilityLabel(draft.label)
            } else {
                Label(draft.label, systemImage: draft.isImage ? "photo" : "doc").font(.caption).lineLimit(1)
            }
            Button(action: remove) {
                Image(systemName: "xmark.circle.fill")
            }
            .accessibilityLabel("Remove \(draft.label)")
        }
        .padding(4)
        .background(Color(uiColor: .tertiarySystemBackground), in: RoundedRectangle(cornerRadius: 8))
        .task(id: draft.id) {
            guard let bytes = draft.thumbnailBytes else { return }
            thumbnail = await UIImage(data: Data(bytes))?.byPreparingThumbnail(ofSize: CGSize(width: 88, height: 88))
        }
    }
}

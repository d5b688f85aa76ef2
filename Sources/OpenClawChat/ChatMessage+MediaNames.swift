import OpenClawProtocol

extension ChatMessage {
    /// The message with the names of the files this device sent filled in where history leaves them out
    /// (gateways keep an image's type and size, not its name): stored that way, a later launch still
    /// shows `photo.jpg` and search finds the message by it. Matched by position, as the rows do.
    func namingMedia(from local: [AttachmentSummary]) -> ChatMessage {
        namingMedia(names: local.map(\.fileName))
    }

    /// The message with the names `earlier` (this message as stored before) gave its files, where this
    /// copy has none: a later launch's history page does not take away the names the first one stored.
    func keepingMediaNames(of earlier: ChatMessage) -> ChatMessage {
        namingMedia(names: earlier.content.compactMap(\.media).map(\.part.fileName))
    }

    /// Fills each image or file part without a name from `names`, by position among the media parts.
    private func namingMedia(names: [String?]) -> ChatMessage {
        guard names.contains(where: { $0 != nil }) else { return self }
        var named = self
        var mediaIndex = 0
        for index in named.content.indices {
            guard let media = named.content[index].media else { continue }
            defer { mediaIndex += 1 }
            guard media.part.fileName == nil, mediaIndex < names.count, let name = names[mediaIndex] else { continue }
            var part = media.part
            part.fileName = name
            named.content[index] = media.isImage ? .image(part) : .file(part)
        }
        return named
    }

    /// The names of the message's files, for search.
    public var mediaFileNames: [String] { content.compactMap { $0.media?.part.fileName } }
}

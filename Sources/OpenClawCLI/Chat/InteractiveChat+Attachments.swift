import OpenClawChat
import OpenClawProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `/attach PATH` and `/detach`: files that go with the next message.
///
/// A file is read and typed when it is attached, and checked against the gateway's limits then, so a
/// refusal (too large, an archive, not an image on protocol 3) comes with the limit and the size before
/// anything is typed, not after. A message with files that cannot be delivered yet waits in the outbox
/// like any other, its files copied beside the database (see `OutboxSpool`); only files attached with no
/// message after them are dropped when the chat ends, and quitting says so.
extension InteractiveChat {
    func attach(_ argument: String) async {
        guard !argument.isEmpty else {
            listAttachments()
            return
        }
        guard let named = AttachPaths(argument) else {
            terminal.error(
                "a quote in the path is not closed",
                hint: "quote a path with spaces ('My File.png') or escape them (My\\ File.png)")
            return
        }
        for path in named.paths { await attach(path: path) }
    }

    private func attach(path: String) async {
        let attachment: Attachment
        do throws(AttachmentError) {
            attachment = try Attachment.file(at: URL(fileURLWithPath: path))
            let limits = await chat.attachmentLimits()
            try limits.check(attachment)
        } catch {
            terminal.error(error.description, hint: nil)
            return
        }
        pendingAttachments.append(attachment)
        let count = pendingAttachments.count
        let label = TerminalText.escapedLine(attachment.summary.label)
        let next = count == 1 ? "goes with your next message" : "go with your next message (\(count) files)"
        terminal.line(terminal.styled("📎 \(label) \(next); /detach drops the files", .dim))
    }

    func detach() {
        guard !pendingAttachments.isEmpty else {
            terminal.line(terminal.styled("no file is attached", .dim))
            return
        }
        let count = pendingAttachments.count
        pendingAttachments = []
        terminal.line(terminal.styled(count == 1 ? "the file was dropped" : "the \(count) files were dropped", .dim))
    }

    private func listAttachments() {
        guard !pendingAttachments.isEmpty else {
            terminal.line("/attach PATH adds a file (an image, a PDF, text …) to your next message")
            return
        }
        for attachment in pendingAttachments {
            terminal.line(terminal.styled("📎 \(TerminalText.escapedLine(attachment.summary.label))", .dim))
        }
    }

    /// Sends the message with the attached files, which are then no longer pending; a refusal keeps
    /// them (the limits may have changed since they were attached) and sends nothing.
    func sendWithAttachments(_ text: String) async -> String? {
        let files = pendingAttachments
        do throws(AttachmentError) {
            let runId = try await chat.send(text, attachments: files)
            pendingAttachments = []
            for file in files {
                terminal.line("     " + terminal.styled(TerminalText.escapedLine(file.summary.label), .dim))
            }
            return runId
        } catch {
            terminal.error(error.description, hint: "/detach drops the files; the message was not sent.")
            return nil
        }
    }
}

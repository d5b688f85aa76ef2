import OpenClawChat
import OpenClawPresentation
import OpenClawProtocol

/// `/expand N`: a message `chat.history` shortened, fetched whole and printed again.
extension InteractiveChat {
    func expand(_ argument: String) async {
        guard let number = Int(argument) else {
            terminal.line("usage: /expand N  (N is the number in a message's \"truncated\" note)")
            return
        }
        guard let entry = chat.messages.first(where: { $0.transcriptSeq == number }) else {
            terminal.line("no message \(number) in this session's loaded history (/history shows the numbers)")
            return
        }
        switch await chat.showAll(entry.id) {
        case .shown, .notTruncated:
            guard let row = MessageRow.rows(for: chat.messages).first(where: { $0.id == entry.id }) else { return }
            rowPrinter.print(row)
        case .unsupported:
            terminal.line("this gateway cannot send a message whole (it has no chat.message.get)")
        case .unavailable(let reason):
            terminal.line(
                "the gateway will not send message \(number) whole: \(TerminalText.escapedLine(reason.split(separator: "_").joined(separator: " ")))"
            )
        case .failed:
            break
        }
    }
}

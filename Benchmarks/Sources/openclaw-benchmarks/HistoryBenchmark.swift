import OpenClawChat
import OpenClawProtocol

/// Scenario 4: a 1,000-message `chat.history` page from text to `ChatHistoryPage`, then into a
/// `Transcript` (first load, and the refresh that follows a run).
enum HistoryBenchmark {
    @MainActor
    static func run(_ report: Report, settings: Settings) throws {
        let count = settings.historyPageMessages
        let text = Fixtures.historyResponseText(count: count)
        let size = "\(Format.grouped(count)) messages, \(Format.number(Format.megabytes(text.utf8.count))) MB"

        let parse = try measureSync(iterations: settings.decodeRuns, warmup: 2) {
            _ = try JSONParser().parse(text)
        }
        var page: ChatHistoryPage?
        let decode = try measureSync(iterations: settings.decodeRuns, warmup: 2) {
            page = try decodePage(text)
        }
        guard let page, page.messages.count == count else {
            throw BenchmarkError.wrongResult("the page decoded to \(page?.messages.count ?? 0) messages")
        }
        report.addLatency(
            "4", "history page text → ChatHistoryPage", decode, goal: .atMost(30, "ms"),
            note: size + "; JSON parse alone \(Format.number(parse.median.milliseconds)) ms")

        var loaded = Transcript(sessionKey: "main")
        let firstLoad = try measureSync(iterations: settings.decodeRuns, warmup: 2) {
            var transcript = Transcript(sessionKey: "main")
            transcript.apply(.historyLoaded(page))
            guard transcript.entries.count == count else {
                throw BenchmarkError.wrongResult("\(transcript.entries.count) rows")
            }
            loaded = transcript
        }
        report.addLatency("4", "ChatHistoryPage → Transcript (first load)", firstLoad)

        let refresh = try measureSync(iterations: settings.decodeRuns, warmup: 2) {
            var transcript = loaded
            transcript.apply(.historyLoaded(page))
            guard transcript.entries.count == count else {
                throw BenchmarkError.wrongResult("\(transcript.entries.count) rows")
            }
        }
        report.addLatency("4", "ChatHistoryPage → Transcript (refresh, same rows)", refresh)
    }

    static func decodePage(_ text: String) throws -> ChatHistoryPage {
        guard case .response(let response) = try FrameCodec().decode(text),
            let page = ChatHistoryPage(json: response.payload)
        else { throw BenchmarkError.wrongResult("not a history response") }
        return page
    }
}

import OpenClawChat
import OpenClawProtocol

/// Scenario 6: what a loaded 10,000-message transcript keeps resident.
enum MemoryBenchmark {
    @MainActor
    static func run(_ report: Report, settings: Settings) throws {
        let count = settings.memoryMessages
        // A small load first, so that code pages and runtime caches the path touches are in the baseline.
        var warmupBytes = 0
        _ = try loadTranscript(count: 100, pageBytes: &warmupBytes)
        ProcessMemory.releaseFreedMemory()
        guard let baseline = ProcessMemory.residentBytes(), let heapBaseline = ProcessMemory.heapInUseBytes() else {
            report.add("6", "memory (no /proc/self/status here)", 0, "MB")
            return
        }
        var pageBytes = 0
        // The page's text and JSON tree are gone when this returns; only the transcript stays.
        let transcript = try loadTranscript(count: count, pageBytes: &pageBytes)
        ProcessMemory.releaseFreedMemory()
        let resident = (ProcessMemory.residentBytes() ?? baseline) - baseline
        let heap = (ProcessMemory.heapInUseBytes() ?? heapBaseline) - heapBaseline
        report.add(
            "6", "resident memory of a \(Format.grouped(count))-message transcript", Format.megabytes(resident), "MB",
            goal: .atMost(30, "MB"),
            note: "RSS delta (VmRSS); live heap delta \(Format.number(Format.megabytes(heap))) MB; "
                + "decoded from \(Format.number(Format.megabytes(pageBytes))) MB of history pages of 1,000")
        withExtendedLifetime(transcript) {}
    }

    /// The session's messages as a client can get them: `chat.history` pages of at most 1,000 messages
    /// (the protocol's limit), each decoded and its text and JSON tree dropped before the next; then one
    /// transcript of all of them.
    private static func loadTranscript(count: Int, pageBytes: inout Int) throws -> Transcript {
        var messages: [ChatMessage] = []
        messages.reserveCapacity(count)
        for first in stride(from: 0, to: count, by: ChatHistoryParams.maximumLimit) {
            let text = Fixtures.historyResponseText(
                count: min(ChatHistoryParams.maximumLimit, count - first), firstSeq: first + 1)
            pageBytes += text.utf8.count
            messages += try HistoryBenchmark.decodePage(text).messages
        }
        var transcript = Transcript(sessionKey: "main")
        transcript.apply(.historyLoaded(ChatHistoryPage(sessionKey: "main", messages: messages)))
        guard transcript.entries.count == count else {
            throw BenchmarkError.wrongResult("\(transcript.entries.count) rows")
        }
        return transcript
    }
}

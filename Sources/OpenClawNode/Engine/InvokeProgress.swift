import OpenClawGateway
import OpenClawProtocol

/// Streams one invoke's output to the gateway as `node.invoke.progress {invokeId, nodeId, seq, chunk}`
/// (upstream `NodeInvokeProgressParamsSchema`, closed; `chunk` at most 16 KiB): ordered chunks numbered
/// from 0, cut only between UTF-8 characters, each sent after the one before was answered.
///
/// Bounded: after ``budgetBytes`` nothing more is streamed (the result still carries the capped whole
/// output), so a chatty command cannot flood the gateway. A chunk the gateway refuses ends the stream.
actor InvokeProgress {
    /// Bytes per chunk: under upstream's 16 Ki-character limit whatever the characters are.
    static let chunkBytes = 8 * 1024
    /// Bytes streamed per invoke at most.
    static let budgetBytes = 64 * 1024

    private let connection: GatewayConnection
    private let invokeId: String
    private let nodeId: String
    private var pending: [UInt8] = []
    private var seq = 0
    private var streamed = 0
    private var stopped = false

    init(connection: GatewayConnection, invokeId: String, nodeId: String) {
        self.connection = connection
        self.invokeId = invokeId
        self.nodeId = nodeId
    }

    /// The closure a command hands its output to.
    nonisolated var sink: @Sendable ([UInt8]) async -> Void {
        { [self] bytes in await self.take(bytes) }
    }

    /// Sends the whole characters of `bytes` (and of what an earlier piece left half-read) in chunks.
    func take(_ bytes: [UInt8]) async {
        guard !stopped else { return }
        pending += bytes
        while !stopped, !pending.isEmpty {
            let room = min(Self.chunkBytes, Self.budgetBytes - streamed)
            let cut = Self.characterBoundary(in: pending, atMost: room)
            guard cut > 0 else { break }
            let chunk = String(decoding: pending[..<cut], as: UTF8.self)
            pending.removeFirst(cut)
            await send(chunk, bytes: cut)
        }
        if streamed >= Self.budgetBytes { stop() }
    }

    private func send(_ chunk: String, bytes: Int) async {
        let params = NodeInvokeProgressParams(invokeId: invokeId, nodeId: nodeId, seq: seq, chunk: chunk)
        seq += 1
        streamed += bytes
        do {
            _ = try await connection.call(params)
        } catch {
            stop()
        }
    }

    private func stop() {
        stopped = true
        pending = []
    }

    /// The longest prefix of at most `limit` bytes that does not end inside a UTF-8 sequence; the whole
    /// of `bytes` when it fits. A prefix that is one broken sequence is taken as it is (decoded with a
    /// replacement character) rather than stalling.
    static func characterBoundary(in bytes: [UInt8], atMost limit: Int) -> Int {
        guard limit > 0 else { return 0 }
        guard bytes.count > limit else {
            // Hold back an incomplete sequence at the end until the rest arrives.
            var start = bytes.count
            while start > 0, bytes[start - 1] & 0xC0 == 0x80, bytes.count - start < 3 { start -= 1 }
            guard start > 0 else { return bytes.count }
            let lead = bytes[start - 1]
            let expected = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
            return bytes.count - (start - 1) < expected ? start - 1 : bytes.count
        }
        var cut = limit
        while cut > 0, bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
        return cut == 0 ? limit : cut
    }
}

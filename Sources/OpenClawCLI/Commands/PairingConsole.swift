import OpenClawProtocol
import OpenClawTestGateway

/// `gateway --require-pairing`: new devices wait for approval, given here as `openclaw devices approve ID`
/// gives it on a real gateway host. Each pending request is printed once; a line `approve ID` on stdin
/// approves that one, `approve` alone every pending one.
enum PairingConsole {
    /// A line typed at the console.
    enum Command: Equatable {
        case approve(requestId: String?)
        case unknown

        init(line: String) {
            let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
            switch (words.first, words.count) {
            case ("approve", 1): self = .approve(requestId: nil)
            case ("approve", 2): self = .approve(requestId: words[1])
            default: self = .unknown
            }
        }
    }

    /// Watches for requests and reads approvals until cancelled.
    static func run(_ gateway: TestGateway, terminal: Terminal) async {
        // Unstructured beside the blocking stdin loop below; cancelled when the console returns.
        let watcher = Task { await announce(gateway, terminal: terminal) }
        defer { watcher.cancel() }
        for await line in LineReader.lines() {
            guard !Task.isCancelled else { return }
            switch Command(line: line) {
            case .approve(let requestId):
                let pending = await gateway.pendingPairingRequests()
                let chosen = requestId.map { id in pending.filter { $0 == id } } ?? pending
                if chosen.isEmpty {
                    terminal.line(
                        "no pending pairing request\(requestId.map { " \(TerminalText.escapedLine($0))" } ?? "")")
                }
                for id in chosen {
                    await gateway.approvePairing(requestId: id)
                    terminal.line("approved \(id)")
                }
            case .unknown:
                terminal.line("type 'approve ID' (or 'approve' for every pending request)")
            }
        }
        await watcher.value
    }

    private static func announce(_ gateway: TestGateway, terminal: Terminal) async {
        var seen: Set<String> = []
        while !Task.isCancelled {
            for id in await gateway.pendingPairingRequests() where !seen.contains(id) {
                seen.insert(id)
                terminal.line("pairing request \(id): type 'approve \(id)' (or 'approve') to let the device in")
            }
            try? await Task.sleep(for: .milliseconds(300))
        }
    }
}

import Foundation
import OpenClawCLI
import OpenClawGateway

// Before any task starts: tasks resumed by the network then run on the event loop that read the frame.
// OPENCLAW_DEFAULT_EXECUTOR=1 keeps Swift's own thread pool (to compare, or should a problem show).
if ProcessInfo.processInfo.environment["OPENCLAW_DEFAULT_EXECUTOR"] == nil {
    NetworkThreads.runConcurrencyOnEventLoops()
}
await OpenClawChatEntry.main()

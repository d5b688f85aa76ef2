import OpenClawCLI
import OpenClawGateway

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// `--help` and `--version` first: they need neither tasks nor the network.
OpenClawChatEntry.answerAtOnceIfAsked()
// Before any task starts: tasks resumed by the network then run on the event loop that read the frame.
// The loops start on a thread of their own while this thread parses the command line; a command that
// never connects (`search`) goes without them.
// OPENCLAW_DEFAULT_EXECUTOR set (to any value) keeps Swift's own thread pool, to compare or should a
// problem show.
// (getenv, not ProcessInfo: building the whole environment dictionary costs start-up time.)
if getenv("OPENCLAW_DEFAULT_EXECUTOR") == nil && !OpenClawChatEntry.commandLineNeedsNoNetwork {
    NetworkThreads.runConcurrencyOnEventLoops()
}
await OpenClawChatEntry.run(OpenClawChatEntry.parsedCommand())

import OpenClawCLI
import OpenClawGateway

// Before any task starts: tasks resumed by the network then run on the event loop that read the frame.
NetworkThreads.runConcurrencyOnEventLoops()
await OpenClawChatEntry.main()

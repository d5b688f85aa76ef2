import OpenClawCLI

await OpenClawChatEntry.main()

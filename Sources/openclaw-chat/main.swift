import OpenClawCLI

await OpenClawChatCommand.main()

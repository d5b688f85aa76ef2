import OpenClawChat
import OpenClawProtocol

/// Keeps Tab's candidates (``CompletionSources``) up to date with what the chat knows.
extension InteractiveChat {
    /// Our commands (the approval ones only for an approver) and the gateway's (`commands.list`), the
    /// sessions and models known so far, the words `/think` takes. Models are asked for once in the background, so `/model` Tab has them
    /// without a `/model` first.
    func refreshCompletions(fetchModels: Bool = false) {
        let commands = LocalCommand.allCases.filter {
            (approvals != nil || !$0.isApprovalCommand) && (questions != nil || !$0.isQuestionCommand)
        }.compactMap {
            command in command.help.map { CompletionSources.Command(name: command.rawValue, summary: $0.text) }
        }
        let gateway = gatewayCompletionCommands
        let sessions = chat.sessions.map(\.key)
        let models = modelChoices.map(\.id)
        CompletionSources.shared.update { sources in
            sources.commands = commands + gateway
            if !sessions.isEmpty { sources.sessionKeys = sessions }
            if !models.isEmpty { sources.modelIds = models }
            sources.thinkingWords = ThinkingLevel.allCases.map(\.rawValue) + ["default", "show", "hide"]
        }
        guard fetchModels, modelChoices.isEmpty else { return }
        let client = ChatClient(connection: connection)
        // Unstructured on purpose: the chat goes on while the list comes, and a lost answer costs only
        // model completion until the next `/model`.
        Task { [weak self] in
            guard let models = try? await client.models().models, !models.isEmpty, let self else { return }
            if self.modelChoices.isEmpty { self.modelChoices = models }
            CompletionSources.shared.update { $0.modelIds = models.map(\.id) }
        }
    }

    /// Follows what Tab completes from as the gateway's lists arrive (its commands, the sessions).
    func keepCompletions() async {
        while !Task.isCancelled {
            refreshCompletions()
            await waitForChange(timeout: nil, of: chat, [.commands, .sessions])
        }
    }
}

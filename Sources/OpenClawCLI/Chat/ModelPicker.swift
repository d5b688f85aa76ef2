import OpenClawChat
import OpenClawGateway
import OpenClawProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `/model`: the gateway's models as a numbered list with the session's current one marked, and
/// `/model N`, `/model ID` (or its alias) or `/model default` to switch this session's model.
enum ModelPicker {
    /// What `/model ARGUMENT` asks for.
    enum Request: Equatable {
        case list
        /// Back to the gateway's default model.
        case reset
        case choose(ModelChoice)
        /// A number out of range, or a name no model has.
        case unknown(String)
    }

    /// Reads the argument against the list shown last (numbers refer to it).
    static func request(_ argument: String, models: [ModelChoice]) -> Request {
        let text = argument.trimming(.whitespaces)
        if text.isEmpty { return .list }
        if text == "default" { return .reset }
        if let number = Int(text) {
            return models.indices.contains(number - 1) ? .choose(models[number - 1]) : .unknown(text)
        }
        let lowered = text.lowercased()
        let match = models.first {
            $0.id.lowercased() == lowered || $0.alias?.lowercased() == lowered
                || "\($0.provider)/\($0.id)".lowercased() == lowered
        }
        return match.map(Request.choose) ?? .unknown(text)
    }

    /// One numbered line per model, `●` on the current one.
    static func lines(_ models: [ModelChoice], current: String?) -> [String] {
        models.enumerated().map { index, model in
            let marker = model.id == current ? "●" : " "
            let name = model.name == model.id ? "" : "  \(model.name)"
            let alias = model.alias.map { " (\($0))" } ?? ""
            return TerminalText.escapedLine(" \(marker) \(index + 1). \(model.provider)/\(model.id)\(alias)\(name)")
        }
    }
}

extension InteractiveChat {
    func chooseModel(_ argument: String) async {
        let client = ChatClient(connection: connection)
        do {
            if modelChoices.isEmpty || argument.trimming(.whitespaces).isEmpty {
                modelChoices = try await client.models().models
            }
            switch ModelPicker.request(argument, models: modelChoices) {
            case .list:
                guard !modelChoices.isEmpty else {
                    terminal.line("the gateway offers no models to choose from")
                    return
                }
                let current = try await currentModel(client)
                for line in ModelPicker.lines(modelChoices, current: current) { terminal.line(line) }
                terminal.line(
                    terminal.styled("  /model N switches \(currentSessionName); /model default resets it", .dim))
            case .reset:
                let result = try await client.setModel(sessionKey: chat.currentSessionKey, model: nil)
                terminal.line("model of \(currentSessionName): the default (\(describe(result)))")
            case .choose(let model):
                let result = try await client.setModel(sessionKey: chat.currentSessionKey, model: model.id)
                terminal.line("model of \(currentSessionName): \(describe(result))")
            case .unknown(let text):
                terminal.line("no model \(TerminalText.escapedLine(text)): /model lists them")
            }
        } catch {
            terminal.error(error.message, hint: error.nextStep)
        }
    }

    private func currentModel(_ client: ChatClient) async throws(GatewayError) -> String? {
        let list = try await client.sessions()
        let keys = chat.transcript.sessionKeys
        let row = list.sessions.first { keys.matches($0.key, chat.currentSessionKey) }
        return row?.model ?? list.defaults.model
    }

    private func describe(_ result: SessionModelPatchResult) -> String {
        let model = [result.resolvedProvider, result.resolvedModel].compactMap { $0 }.joined(separator: "/")
        return TerminalText.escapedLine(model.isEmpty ? "as the gateway decides" : model)
    }
}

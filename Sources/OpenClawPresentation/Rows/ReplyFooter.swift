import OpenClawChat
import OpenClawProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The line under a finished reply: which model wrote it, at what thinking level, and the tokens it
/// used, as far as the gateway says. `claude-sonnet-4-5 · thinking low · 940 tokens (900 in, 40 out) ·
/// $0.0030`. The terminal prints it after each reply; the app shows it under the bubble.
public struct ReplyFooter: Sendable, Equatable {
    public let model: String?
    public let thinkingLevel: String?
    public let usage: ChatUsage?

    /// Nil when there is nothing to say: no message from the gateway yet, or a message the gateway
    /// wrote itself (a command's answer, an injected note: its `gateway-injected` model and zero usage
    /// say nothing about the agent).
    public init?(reply: TranscriptEntry, thinkingLevel: String?) {
        guard let message = reply.message, message.role == .assistant else { return nil }
        if message.model == Self.gatewayInjectedModel { return nil }
        let usage = message.usage.flatMap { Self.tokens(in: $0) == nil && ($0.costTotal ?? 0) == 0 ? nil : $0 }
        guard message.model != nil || usage != nil else { return nil }
        self.model = message.model
        self.thinkingLevel = thinkingLevel
        self.usage = usage
    }

    /// The model name gateways give the messages they write themselves.
    static let gatewayInjectedModel = "gateway-injected"

    public var text: String {
        var parts: [String] = []
        if let model { parts.append(model) }
        if let thinkingLevel { parts.append("thinking \(thinkingLevel)") }
        if let usage {
            if let total = Self.tokens(in: usage) {
                var tokens = "\(Self.grouped(total)) tokens"
                if let input = usage.inputTokens, let output = usage.outputTokens {
                    tokens += " (\(Self.grouped(input)) in, \(Self.grouped(output)) out)"
                }
                parts.append(tokens)
            }
            if let cost = usage.costTotal, cost > 0 {
                parts.append("$" + EssentialsText.fixed(cost, digits: cost < 0.01 ? 4 : 2))
            }
        }
        return parts.joined(separator: " · ")
    }

    /// The total, or input plus output when the gateway gave only those; nil when it gave no count.
    static func tokens(in usage: ChatUsage) -> Int? {
        if let total = usage.totalTokens, total > 0 { return total }
        let sum = (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0)
        return sum > 0 ? sum : nil
    }

    /// `12,345`: digits grouped by three, the same in every locale (a footer is not a report).
    static func grouped(_ number: Int) -> String {
        let digits = String(abs(number))
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return number < 0 ? "-" + out : out
    }
}

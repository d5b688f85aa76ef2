import Observation
import OpenClawApprovals
import OpenClawChat
import OpenClawGateway
import OpenClawProtocol

/// The app's approvals: the pending commands as cards (the first one is the sheet, the count the
/// banner), the decisions, and what happened last. Built on the same ``ApprovalsClient`` as the
/// terminal; a card closes whoever decided — this phone, another approver, or the deadline.
@MainActor
@Observable
public final class ApprovalsModel {
    public private(set) var cards: [ApprovalCard] = []
    public private(set) var availability: ApprovalAvailability
    /// The last outcome or error, one sentence (for a transient banner); nil until something happens.
    public private(set) var notice: Notice?
    /// Cards whose decision is on its way (their buttons are disabled).
    public private(set) var deciding: Set<String> = []
    /// Cards showing their full command.
    public private(set) var expanded: Set<String> = []

    public struct Notice: Sendable, Equatable {
        public var message: String
        public var nextStep: String?
        public var isError: Bool

        public init(message: String, nextStep: String?, isError: Bool) {
            self.message = message
            self.nextStep = nextStep
            self.isError = isError
        }
    }

    /// The card the sheet shows: the oldest pending one.
    public var presented: ApprovalCard? { cards.first }

    /// "2 commands waiting for approval" for the banner; nil when none is.
    public var bannerText: String? {
        switch cards.count {
        case 0: nil
        case 1: "A command is waiting for your approval"
        default: "\(cards.count) commands are waiting for your approval"
        }
    }

    @ObservationIgnored public let client: ApprovalsClient
    @ObservationIgnored private var relay = ClientUpdateRelay()

    public init(client: ApprovalsClient) {
        self.client = client
        self.availability = client.connection.configuration.approvalsEnabled ? .waiting : .off
    }

    /// Follows the client (call before the connection connects, so no request is missed).
    public func start() async {
        await client.start()
        relay.relay(await client.updates(), to: self) { model, update in await model.apply(update) }
    }

    public func stop() async {
        relay.stop()
        await client.stop()
    }

    public func isExpanded(_ card: ApprovalCard) -> Bool { expanded.contains(card.id) }

    public func toggleFullCommand(_ card: ApprovalCard) {
        if expanded.remove(card.id) == nil { expanded.insert(card.id) }
    }

    /// Sends a decision for `card`; the card closes when it is answered (or when it turns out another
    /// approver or the deadline got there first).
    public func decide(_ card: ApprovalCard, _ decision: ExecApprovalDecision) async {
        guard deciding.insert(card.id).inserted else { return }
        do {
            let closed = try await client.decide(card.id, decision)
            deciding.remove(card.id)
            remove(closed.id)
            notice = Notice(message: Self.sentence(closed), nextStep: nil, isError: false)
        } catch {
            switch error {
            // It may have landed: the buttons stay off until the gateway says how it ended.
            case .inDoubt: break
            case .expired(let id), .alreadyResolved(let id, _):
                deciding.remove(card.id)
                remove(id)
            default: deciding.remove(card.id)
            }
            notice = Notice(message: error.message, nextStep: error.nextStep, isError: true)
        }
    }

    public func dismissNotice() { notice = nil }

    func apply(_ update: ApprovalUpdate) async {
        switch update {
        case .availability(let new): availability = new
        case .requested(let approval):
            guard !cards.contains(where: { $0.id == approval.id }) else { return }
            let queue = await client.queue
            cards.append(ApprovalCard(approval: approval, shortId: queue.shortId(approval.id)))
        case .closed(let closed):
            guard cards.contains(where: { $0.id == closed.id }) else { return }
            remove(closed.id)
            notice = Notice(message: Self.sentence(closed), nextStep: nil, isError: false)
        case .undelivered(let approval, let sent):
            deciding.remove(approval.id)
            notice = Notice(
                message: "Your \(sent.rawValue) did not reach the gateway: the command is still waiting.",
                nextStep: "Decide again.", isError: true)
        }
    }

    private func remove(_ id: String) {
        deciding.remove(id)
        cards.removeAll { $0.id == id }
        expanded.remove(id)
    }

    /// One sentence for an outcome: "Allowed once.", "Denied by Peter's Mac.", "Expired: it did not run."
    static func sentence(_ closed: ClosedApproval) -> String {
        switch closed.outcome {
        case .decided(let decision, let by, let byUs):
            let verb =
                switch decision {
                case .allowOnce: "Allowed once"
                case .allowAlways: "Always allowed"
                case .deny: "Denied"
                }
            if byUs { return "\(verb)." }
            return "\(verb) by \(by.map { CommandDisplay($0).escaped } ?? "another approver")."
        case .resolvedOther(let by):
            return "Decided by \(by.map { CommandDisplay($0).escaped } ?? "another approver")."
        case .expired:
            return "Expired: the command did not run."
        case .withdrawn:
            return "No longer pending: decided elsewhere or expired while offline."
        case .undetermined(let sent):
            return
                "No longer pending: decided (perhaps by your \(sent.rawValue)) or expired; the gateway no longer says which."
        }
    }
}

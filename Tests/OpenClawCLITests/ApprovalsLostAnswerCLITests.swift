import Foundation
import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

/// `approvals watch` when the connection drops after `allow` left and before its answer (issue 38.4):
/// it says the decision may have reached the gateway, asks once reconnected, and reports that the
/// command was allowed by this approver — never "decide again", never "decided elsewhere".
@Suite("openclaw-chat: a decision whose answer is lost")
struct ApprovalsLostAnswerCLITests {
    @Test func watchReportsTheDecisionThatLandedBeforeTheDrop() async throws {
        try await CLITests.withGateway(ApprovalsCLITests.gateway) { gateway, common in
            let watch = try InteractiveProcess(["approvals", "watch"] + common, mode: .pipes)
            defer { watch.killIfRunning() }
            try await watch.waitFor("Watching for approval requests")
            async let sent = CLIProcess.run(["send"] + common + ["run a command: make test"])
            try await watch.waitFor("approval needed")
            await gateway.setFaults(FaultPlan(dropConnectionOnApprovalResolve: true))
            watch.type("allow", mode: .pipes)
            try await watch.waitFor("the decision may have reached the gateway; checking")
            try await watch.waitFor("allowed once by you")
            let result = try await sent
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(result.stdout.contains("Done: the command ran"))
            watch.endInput(mode: .pipes)
            #expect(try await watch.waitForExit() == 0, "output:\n\(watch.output)")
            #expect(!watch.output.contains("Decide again"), "output:\n\(watch.output)")
            #expect(!watch.output.contains("decided elsewhere"), "output:\n\(watch.output)")
            #expect(!watch.output.contains("was not sent"), "output:\n\(watch.output)")
        }
    }

    @Test func theChatReportsTheDecisionThatLandedBeforeTheDrop() async throws {
        try await CLITests.withGateway(ApprovalsCLITests.gateway) { gateway, common in
            let chat = try InteractiveProcess(["chat", "--approvals"] + common, mode: .terminal)
            defer { chat.killIfRunning() }
            try await chat.waitFor("approvals on")
            chat.type("run a command", mode: .terminal)
            try await chat.waitFor("/approve ")
            await gateway.setFaults(FaultPlan(dropConnectionOnApprovalResolve: true))
            chat.type("/approve", mode: .terminal)
            try await chat.waitFor("the decision may have reached the gateway; checking")
            // The reply and the outcome come in either order.
            #expect(
                await eventually(timeout: .seconds(30)) {
                    chat.output.contains("allowed once by you") && chat.output.contains("Done: the command ran")
                }, "output:\n\(chat.output)")
            chat.type("/quit", mode: .terminal)
            #expect(try await chat.waitForExit() == 0, "output:\n\(chat.output)")
            #expect(!chat.output.contains("Decide again"), "output:\n\(chat.output)")
            #expect(!chat.output.contains("decided elsewhere"), "output:\n\(chat.output)")
        }
    }
}

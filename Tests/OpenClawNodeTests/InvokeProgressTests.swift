import Foundation
import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

@testable import OpenClawNode

/// A long command's output streams to the gateway while it runs (`node.invoke.progress`: ordered,
/// chunked between characters, bounded), only where the gateway lists the method; a cancelled invoke
/// kills the command.
@Suite("Node: invoke progress and cancel")
struct InvokeProgressTests {
    private static func streamedRun(quirks: GatewayQuirks) async throws -> (chunks: [NodeProgressChunk], stdout: String)
    {
        try await withValidatedTestGateway(.init(quirks: quirks)) { gateway in
            let fixture = try await NodeFixture.start(
                on: gateway, policy: NodeFixture.policy(.allowlist, allow: ["/usr/bin/seq"]))
            defer { Task { await fixture.stop() } }
            let run = try await fixture.invoke("system.run", ["command": ["seq", "1", "30000"]])
            let stdout = run?["payload"]?["stdout"]?.stringValue ?? ""
            let chunks = await gateway.nodeInvokeProgress().values.first ?? []
            return (chunks, stdout)
        }
    }

    @Test func outputStreamsInOrderedBoundedChunks() async throws {
        let (chunks, stdout) = try await Self.streamedRun(quirks: [])
        #expect(!chunks.isEmpty)
        #expect(chunks.map(\.seq) == Array(0..<chunks.count), "numbered from 0 without gaps")
        #expect(chunks.allSatisfy { $0.chunk.utf8.count <= InvokeProgress.chunkBytes })
        let streamed = chunks.map(\.chunk).joined()
        #expect(streamed.utf8.count <= InvokeProgress.budgetBytes, "bounded per invoke")
        #expect(streamed.utf8.count > InvokeProgress.budgetBytes - InvokeProgress.chunkBytes)
        #expect(stdout.hasPrefix(streamed), "the chunks are the start of the output, in order")
    }

    @Test func aGatewayWithoutTheMethodGetsTheResultOnly() async throws {
        let (chunks, stdout) = try await Self.streamedRun(quirks: .noNodeInvokeProgress)
        #expect(chunks.isEmpty)
        #expect(stdout.hasPrefix("1\n2\n3\n"))
    }

    /// The test gateway judges a node's progress as upstream's handler does
    /// (`nodes.handlers.invoke-progress.ts`): another node's id and over 16 KiB of UTF-8 are refused, a
    /// chunk for no running invoke is answered `ignored: true`.
    @Test func theGatewayJudgesProgressAsUpstreamDoes() async throws {
        try await withValidatedTestGateway { gateway in
            let fixture = try await NodeFixture.start(on: gateway, policy: NodeFixture.policy(.deny))
            defer { Task { await fixture.stop() } }
            func progress(nodeId: String, chunk: String) async -> Result<JSONValue?, GatewayError> {
                let params: JSONValue = [
                    "invokeId": "no-such-invoke", "nodeId": .string(nodeId), "seq": 0, "chunk": .string(chunk),
                ]
                do throws(GatewayError) {
                    return .success(try await fixture.node.request("node.invoke.progress", params: params))
                } catch { return .failure(error) }
            }
            let ignored = await progress(nodeId: fixture.nodeId, chunk: "x")
            #expect((try? ignored.get()) == ["ok": true, "ignored": true])
            let foreign = await progress(nodeId: "someone-else", chunk: "x")
            guard case .failure(.requestFailed(_, let mismatch)) = foreign else {
                Issue.record("another node's id was taken: \(foreign)")
                return
            }
            #expect(mismatch.code == .invalidRequest && mismatch.message == "nodeId mismatch")
            // 6,000 characters (under the schema's 16,384) of 3 bytes each: 18,000 bytes.
            let wide = await progress(nodeId: fixture.nodeId, chunk: String(repeating: "€", count: 6_000))
            guard case .failure(.requestFailed(_, let tooLarge)) = wide else {
                Issue.record("a chunk over 16 KiB was taken: \(wide)")
                return
            }
            #expect(tooLarge.code == .invalidRequest && tooLarge.message == "progress chunk too large")
        }
    }

    @Test func chunksAreCutBetweenCharacters() {
        let text = Array("aé€😀".utf8)  // 1 + 2 + 3 + 4 bytes
        #expect(InvokeProgress.characterBoundary(in: text, atMost: 2) == 1, "not inside é")
        #expect(InvokeProgress.characterBoundary(in: text, atMost: 5) == 3, "not inside €")
        #expect(InvokeProgress.characterBoundary(in: text, atMost: 100) == 10)
        #expect(InvokeProgress.characterBoundary(in: Array(text.prefix(8)), atMost: 100) == 6, "half an emoji waits")
        #expect(InvokeProgress.characterBoundary(in: text, atMost: 0) == 0)
    }

    @Test func aCancelledInvokeKillsItsCommand() async throws {
        let marker = "31.\(Int.random(in: 100_000...999_999))"
        try await withValidatedTestGateway { gateway in
            let fixture = try await NodeFixture.start(
                on: gateway, policy: NodeFixture.policy(.allowlist, allow: ["/usr/bin/sleep"]))
            defer { Task { await fixture.stop() } }
            let call = Task { try? await fixture.invoke("system.run", ["command": ["sleep", .string(marker)]]) }
            defer { call.cancel() }
            #expect(await eventually { Self.running(marker) })
            let invokeId = try #require(await gateway.pendingNodeInvokes().first)
            await gateway.cancelNodeInvoke(invokeId)
            #expect(await eventually(timeout: .seconds(10)) { !Self.running(marker) }, "the child was killed")
        }
    }

    /// Whether a `sleep MARKER` process exists.
    private static func running(_ marker: String) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/pgrep")
        process.arguments = ["-f", "sleep \(marker)"]
        process.standardOutput = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}

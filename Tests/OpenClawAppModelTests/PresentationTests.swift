import OpenClawChat
import OpenClawGateway
import OpenClawProtocol
import Testing

@testable import OpenClawAppModel

@Suite("Small presentation values")
struct PresentationTests {
    @Test func theRingBufferKeepsTheNewestInOrder() {
        var ring = RingBuffer<Int>(capacity: 3)
        #expect(ring.elements.isEmpty)
        for value in 1...2 { ring.append(value) }
        #expect(ring.elements == [1, 2])
        for value in 3...7 { ring.append(value) }
        #expect(ring.elements == [5, 6, 7])
        #expect(ring.count == 3)
        ring.removeAll()
        ring.append(8)
        #expect(ring.elements == [8])
    }

    @Test func addressesAreCheckedInPlainWords() throws {
        #expect(GatewayAddressCheck("  ") == .empty)
        #expect(GatewayAddressCheck("").problem?.contains("ws://") == true)

        let bare = GatewayAddressCheck("mini.local")
        #expect(bare.url?.description == "ws://mini.local:18789")
        guard case .valid(_, let caution) = bare else {
            Issue.record("expected valid, got \(bare)")
            return
        }
        #expect(caution?.contains("not encrypted") == true)
        #expect(
            GatewayAddressCheck("wss://gateway.example.com")
                == .valid(try GatewayURL(parsing: "wss://gateway.example.com"), caution: nil))
        #expect(
            GatewayAddressCheck("127.0.0.1:18789")
                == .valid(try GatewayURL(parsing: "ws://127.0.0.1:18789"), caution: nil))

        #expect(
            GatewayAddressCheck("ftp://host").problem
                == "“ftp://” is not a gateway address. Use ws://host:port, or wss://host for TLS.")
        #expect(GatewayAddressCheck("host:99999").problem == "“99999” is not a valid port (1–65535).")
        #expect(GatewayAddressCheck("ws://user:secret@host").problem?.contains("field below") == true)
        #expect(GatewayAddressCheck("ws://user:secret@host").problem?.contains("secret") == false)
        #expect(GatewayAddressCheck("ws://:80").problem == "The address has no host name.")
    }

    @Test func pairingRetriesStartSlowAndGrowToHalfAMinute() {
        let schedule = PairingRetrySchedule()
        let delays = (0..<7).map { schedule.delay(afterAttempt: $0) }
        #expect(delays == [3, 6, 12, 24, 30, 30, 30].map { Duration.seconds($0) })
        #expect(
            PairingRetrySchedule(initial: .seconds(40), maximum: .seconds(30)).delay(afterAttempt: 0) == .seconds(40))
    }

    @Test func theBannerSaysWhatIsWrongAndOffersTheRightButton() {
        #expect(ConnectionBanner(.connecting)?.style == .progress)
        #expect(ConnectionBanner(.disconnected(nil))?.action == .reconnect)

        let dropped = ConnectionBanner(.disconnected(.connectionLost))
        #expect(dropped?.message == "Disconnected: the connection dropped.")
        #expect(dropped?.detail == ConnectionBanner.outboxNote)
        #expect(dropped?.action == .reconnect)

        let refused = ConnectionBanner(.failed(.transport(.connectionRefused(host: "mini", port: 18789))))
        #expect(refused?.style == .offline)
        #expect(refused?.action == .reconnect)

        let auth = ConnectionBanner(.failed(.authFailed(.init(code: .authTokenMismatch, message: "token mismatch"))))
        #expect(auth?.style == .problem)
        #expect(auth?.action == .openSettings)
        #expect(auth?.detail != nil)

        let now = ContinuousClock.now
        let waiting = ReconnectStatus(
            attempt: 2, delay: .seconds(4), nextAttemptAt: now + .milliseconds(3_200),
            cause: .attemptFailed(.transport(.connectionRefused(host: "mini", port: 18789))))
        let reconnecting = ConnectionBanner(.reconnecting(waiting), now: now)
        #expect(
            reconnecting?.message
                == "Could not reach the gateway: nothing is listening at mini:18789. Reconnecting in 4 s…")
        #expect(reconnecting?.action == .reconnect)
        #expect(
            ConnectionBanner(.reconnecting(waiting), now: now + .seconds(5))?.message.hasSuffix("Reconnecting…") == true
        )

        let pairing = ConnectionBanner(.failed(.pairingRequired(.init(requestId: "r1", reason: "not-paired"))))
        #expect(pairing?.action == nil)
    }

    @Test func aResultRowKeepsTheHitsMarkedParts() {
        let parts: [SearchHit.Part] = [
            .init(text: "…the [sic] ", isMatch: false), .init(text: "gateway", isMatch: true),
            .init(text: " runs", isMatch: false),
        ]
        let hit = SearchHit(
            gateway: "g", sessionKey: "main", messageId: "m1", role: .assistant, parts: parts, timestampMs: nil)
        #expect(SearchResultRow(hit).parts == parts)
        #expect(hit.snippet == "…the [sic] [gateway] runs")
    }
}

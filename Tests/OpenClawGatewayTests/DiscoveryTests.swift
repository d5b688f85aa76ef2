import Testing

@testable import OpenClawGateway

/// Gateway beacons as `avahi-browse -rpt` prints them (recorded shapes), read into typed gateways.
@Suite("Discovery: beacons read")
struct DiscoveryTests {
    static let fingerprint = String(repeating: "ab", count: 32)

    static let recorded = """
        +;eth0;IPv4;Home\\032Gateway;_openclaw-gw._tcp;local
        +;eth0;IPv6;Home\\032Gateway;_openclaw-gw._tcp;local
        =;eth0;IPv6;Home\\032Gateway;_openclaw-gw._tcp;local;mini.local;fe80::1c2a:3bff:fe4d:5e6f;18789;"role=gateway" "transport=gateway" "displayName=Mac mini" "lanHost=mini.local" "gatewayPort=18789" "gatewayTls=1" "gatewayTlsSha256=\(fingerprint)" "tailnetDns=mini.tail1234.ts.net"
        =;eth0;IPv4;Home\\032Gateway;_openclaw-gw._tcp;local;mini.local;192.168.1.20;18789;"role=gateway" "transport=gateway" "displayName=Mac mini" "lanHost=mini.local" "gatewayPort=18789" "gatewayTls=1" "gatewayTlsSha256=\(fingerprint)" "tailnetDns=mini.tail1234.ts.net"
        =;wlan0;IPv4;pi;_openclaw-gw._tcp;local;raspberrypi.local;192.168.1.31;18790;"gatewayPort=9999" "lanHost=evil.example"
        =;eth0;IPv4;a\\059node;_openclaw-gw._tcp;local;node.local;192.168.1.40;18789;"role=node"
        =;eth0;IPv4;broken;_openclaw-gw._tcp;local;broken.local;192.168.1.41;notaport;"role=gateway"
        =;eth0;IPv4;short line
        -;eth0;IPv4;Old;_openclaw-gw._tcp;local
        """

    @Test func resolvedBeaconsBecomeOneGatewayEachWithAllTheirAddresses() throws {
        let gateways = AvahiBrowseOutput.gateways(from: Self.recorded)
        #expect(gateways.map(\.serviceName) == ["Home Gateway", "pi"])
        let home = try #require(gateways.first)
        #expect(home.displayName == "Mac mini")
        #expect(home.addresses == ["fe80::1c2a:3bff:fe4d:5e6f", "192.168.1.20"])
        #expect(home.url.description == "wss://mini.local:18789")
        #expect(home.txt.advertisedFingerprint == TLSFingerprint(parsing: Self.fingerprint))
        #expect(home.txt.tailnetDns == "mini.tail1234.ts.net")
    }

    @Test func theResolvedEndpointWinsOverTheTXTHints() throws {
        // TXT is unauthenticated: its host and port are shown at most, never connected to.
        let pi = try #require(AvahiBrowseOutput.gateways(from: Self.recorded).last)
        #expect(pi.url.description == "ws://raspberrypi.local:18790")
        #expect(pi.txt.gatewayPort == 9999)
        #expect(pi.txt.lanHost == "evil.example")
        #expect(pi.displayName == "pi", "no displayName: the service name")
        #expect(pi.txt.isGateway, "older gateways send no role")
    }

    @Test func txtValuesAreReadLeniently() {
        let txt = DiscoveryTXT(entries: [
            "ROLE=gateway", "role=node", "gatewayPort=0", "sshPort=70000", "gatewayTls=true",
            "gatewayTlsSha256=not-hex", "displayName=", "flag", "cliPath=/opt/openclaw/bin/openclaw",
        ])
        #expect(txt.role == "gateway", "keys are case-insensitive; the first one wins")
        #expect(txt.gatewayPort == nil)
        #expect(txt.sshPort == nil)
        #expect(txt.usesTLS)
        #expect(txt.advertisedFingerprint == nil)
        #expect(txt.displayName == nil)
        #expect(txt.cliPath == "/opt/openclaw/bin/openclaw")
    }

    @Test func escapesInNamesAndTXTAreDecoded() {
        #expect(AvahiBrowseOutput.unescaped("Caf\\195\\169\\032\\059\\092") == "Café ;\\")
        #expect(AvahiBrowseOutput.unescaped("trailing\\") == "trailing\\")
        #expect(
            AvahiBrowseOutput.txtStrings(#""a=1" "b=two words" "c=say \"hi\"" "d=x\059y" junk"#)
                == ["a=1", "b=two words", #"c=say "hi""#, "d=x;y"])
    }
}

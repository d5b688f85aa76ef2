import Foundation
import OpenClawProtocol
import Testing

@Suite("Base64")
struct Base64Tests {
    @Test func matchesFoundationForEveryTailLength() {
        var generator = SystemRandomNumberGenerator()
        for count in [0, 1, 2, 3, 4, 5, 100, 1001, 65_537] {
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let ours = Base64.encode(bytes)
            #expect(ours == Data(bytes).base64EncodedString(), "\(count) bytes")
            #expect(ours.utf8.count == Base64.encodedCount(count))
            if count > 0 { #expect(Base64.decodeStrict(Array(ours.utf8)) == bytes) }
        }
    }

    @Test func strictDecodingRefusesWhatGatewaysRefuse() {
        for bad in ["", "abc", "ab=c", "a===", "YW Jj", "YWJj\n", "YW-_", "=YWJ", "YQ==YQ=="] {
            #expect(Base64.decodeStrict(Array(bad.utf8)) == nil, "\(bad)")
        }
        #expect(Base64.decodeStrict(Array("YQ==".utf8)) == [0x61])
        #expect(Base64.decodeStrict(Array("YWI=".utf8)) == [0x61, 0x62])
    }
}

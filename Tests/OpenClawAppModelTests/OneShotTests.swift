import OpenClawAppModel
import Testing

/// The flag the app's Bonjour resolver uses so that a state change and a timeout cannot both resume.
@Suite("OneShot")
struct OneShotTests {
    @Test func onlyTheFirstClaimSucceeds() {
        let once = OneShot()
        #expect(!once.isClaimed)
        #expect(once.claim())
        #expect(once.isClaimed)
        #expect(!once.claim())
    }

    @Test func exactlyOneOfManyConcurrentClaimsSucceeds() async {
        for _ in 0..<20 {
            let once = OneShot()
            let winners = await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<16 {
                    group.addTask { once.claim() }
                }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(winners == 1)
        }
    }
}

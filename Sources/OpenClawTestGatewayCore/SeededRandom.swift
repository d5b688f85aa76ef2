/// SplitMix64: a tiny, fast generator whose whole state is one seed, so every fault plan, fuzz run
/// and fault scenario can be replayed from the seed printed with a failure.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// True with probability `percent` / 100; draws nothing when `percent` is 0, so a plan without
    /// random faults consumes no randomness.
    public mutating func chance(_ percent: Int) -> Bool {
        guard percent > 0 else { return false }
        return Int.random(in: 0..<100, using: &self) < percent
    }
}

/// A small deterministic generator for kernel test data: the same values on every run, so a
/// failure can be reproduced (tests must not depend on a seed-less RNG).
struct TestRandom {
    var state: UInt64

    /// The next raw 64-bit state (a linear congruential step).
    mutating func next() -> UInt64 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return state
    }

    /// `count` values (n mod (2·range + 1) − range) / divisor, n from the state's high bits.
    mutating func floats(_ count: Int, range: Int, divisor: Float) -> [Float] {
        (0..<count).map { _ in Float(Int(next() >> 40) % (2 * range + 1) - range) / divisor }
    }
}

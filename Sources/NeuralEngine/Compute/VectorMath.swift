/// Eight-lane float math that reproduces, bit for bit, CTranslate2's `Vec<float, AVX2>`
/// functions as built in its Linux x86-64 wheels (GCC, `-mavx2 -mfma`, `-ffp-contract=fast`).
///
/// Why: Glossa is checked token-for-token and score-for-score against CTranslate2, which runs
/// its AVX2 kernels on Haswell-class and newer CPUs. libm's `expf`/`erff`/`tanhf` differ from
/// those kernels by an ulp here and there, and an ulp is enough to change a score, or to flip an
/// int8 rounding that then propagates. The polynomials below are the ones CTranslate2 uses
/// (`third_party/avx_mathfun.h` for exp, `src/cpu/vec.h` for erf and tanh), evaluated in the same
/// order, with a fused multiply-add wherever GCC contracted a multiply feeding an add in that
/// build (checked against the wheel's disassembly and against its exported kernels).
///
/// Everything works on the concrete `SIMD8<Float>` type so the compiler emits AVX2 code directly.
enum VectorMath {
    typealias F8 = SIMD8<Float>

    // Cephes exp constants (avx_mathfun.h `exp256_ps`).
    private static let expHigh: Float = 88.3762626647949
    private static let expLow: Float = -88.3762626647949
    private static let log2e: Float = 1.44269504088896341
    private static let ln2High: Float = 0.693359375
    private static let ln2Low: Float = -2.12194440e-4
    private static let expP0: Float = 1.9875691500e-4
    private static let expP1: Float = 1.3981999507e-3
    private static let expP2: Float = 8.3334519073e-3
    private static let expP3: Float = 4.1665795894e-2
    private static let expP4: Float = 1.6666665459e-1
    private static let expP5: Float = 5.0000001201e-1

    /// exp(x) as a mantissa factor and a power of two, their product being `exp256_ps(x)`.
    /// Split so a sum of exponentials can fuse the final multiply into its accumulation, as
    /// GCC does in CTranslate2's log-softmax (`softmax` in `src/cpu/kernels.cc`).
    @inline(__always)
    static func expParts(_ input: F8) -> (mantissa: F8, scale: F8) {
        let x0 = clamp(input, expHigh)
        // n = round(x·log2 e): floor(x·log2e + 0.5), with the Cephes "subtract 1 if greater".
        var fx = F8(repeating: 0.5).addingProduct(x0, F8(repeating: log2e))
        let floored = fx.rounded(.down)
        fx = floored - F8(repeating: 0).replacing(with: 1, where: floored .> fx)
        // g = x − n·ln2, in two fused steps (high and low parts of ln 2).
        var x = x0.addingProduct(-fx, F8(repeating: ln2High))
        x = x.addingProduct(-fx, F8(repeating: ln2Low))
        let z = x * x
        var y = F8(repeating: expP1).addingProduct(x, F8(repeating: expP0))
        y = F8(repeating: expP2).addingProduct(y, x)
        y = F8(repeating: expP3).addingProduct(y, x)
        y = F8(repeating: expP4).addingProduct(y, x)
        y = F8(repeating: expP5).addingProduct(y, x)
        y = x.addingProduct(y, z)
        y += 1
        // 2^n built in the exponent bits. n is integral and within ±128 after the clamp, so adding
        // 1.5·2²³ leaves n in the low mantissa bits (this is cvttps2dq without the generic
        // conversion Swift would call).
        let n = bits(fx + 12_582_912) &- 0x4B40_0000 &+ 127
        let scale = floats(n &<< 23)
        return (y, scale)
    }

    /// `exp256_ps` (avx_mathfun.h).
    @inline(__always)
    static func exp(_ x: F8) -> F8 {
        let (m, s) = expParts(x)
        return m * s
    }

    /// erf by Abramowitz–Stegun 7.1.26, as CTranslate2's `vec_erf` (src/cpu/vec.h).
    @inline(__always)
    static func erf(_ a: F8) -> F8 {
        let signBits = bits(a) & 0x8000_0000
        let absolute = floats(bits(a) ^ signBits)
        let one = F8(repeating: 1)
        let t = one / one.addingProduct(F8(repeating: 0.3275911), absolute)
        var r = F8(repeating: -1.453152027).addingProduct(F8(repeating: 1.061405429), t)
        r = F8(repeating: 1.421413741).addingProduct(r, t)
        r = F8(repeating: -0.284496736).addingProduct(r, t)
        r = F8(repeating: 0.254829592).addingProduct(r, t)
        let e = exp(-(a * a))
        let v = one.addingProduct(-e * t, r)
        return floats(bits(v) ^ signBits)
    }

    /// tanh by Eigen's rational approximation, as CTranslate2's `vec_tanh` (src/cpu/vec.h).
    @inline(__always)
    static func tanh(_ a: F8) -> F8 {
        let clamp: Float = 7.90531110763549805
        let x = Self.clamp(a, clamp)
        let x2 = x * x
        var p = F8(repeating: 2.00018790482477e-13).addingProduct(x2, F8(repeating: -2.76076847742355e-16))
        p = F8(repeating: -8.60467152213735e-11).addingProduct(x2, p)
        p = F8(repeating: 5.12229709037114e-08).addingProduct(x2, p)
        p = F8(repeating: 1.48572235717979e-05).addingProduct(x2, p)
        p = F8(repeating: 6.37261928875436e-04).addingProduct(x2, p)
        p = F8(repeating: 4.89352455891786e-03).addingProduct(x2, p)
        p = x * p
        var q = F8(repeating: 1.18534705686654e-04).addingProduct(x2, F8(repeating: 1.19825839466702e-06))
        q = F8(repeating: 2.26843463243900e-03).addingProduct(x2, q)
        q = F8(repeating: 4.89352518554385e-03).addingProduct(x2, q)
        let tiny = floats(bits(a) & 0x7FFF_FFFF) .< F8(repeating: 0.0004)
        return (p / q).replacing(with: x, where: tiny)
    }

    /// min(max(x, −limit), limit) without the unspecialised generic `clamped`.
    @inline(__always)
    private static func clamp(_ x: F8, _ limit: Float) -> F8 {
        let high = F8(repeating: limit), low = F8(repeating: -limit)
        let upper = x.replacing(with: high, where: x .> high)
        return upper.replacing(with: low, where: upper .< low)
    }

    @inline(__always) private static func bits(_ v: F8) -> SIMD8<UInt32> { unsafeBitCast(v, to: SIMD8<UInt32>.self) }
    @inline(__always) private static func floats(_ v: SIMD8<UInt32>) -> F8 { unsafeBitCast(v, to: F8.self) }

    /// Horizontal sum in `reduce_m256`'s order (src/cpu/vec_avx.h): halves, then pairs, then lanes.
    @inline(__always)
    static func sum(_ v: F8) -> Float {
        let h = v.lowHalf + v.highHalf
        let q = h.lowHalf + h.highHalf
        return q[0] + q[1]
    }

    /// Horizontal maximum (any order gives the same result for non-NaN values).
    @inline(__always)
    static func max(_ v: F8) -> Float { v.max() }
}

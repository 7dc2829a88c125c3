import Builtin

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
/// Every operation is one LLVM vector instruction on `<8 x float>` (through the Builtin module):
/// the stdlib's generic `addingProduct`, `rounded(.down)` and `replacing(with:where:)` are
/// lowered lane by lane or in 128-bit halves, which made `exp` several times slower than the
/// 256-bit code CTranslate2 runs. Same IEEE operations in the same order either way.
enum VectorMath {
    typealias F8 = SIMD8<Float>
    typealias U8 = SIMD8<UInt32>

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
        // _mm256_max_ps(_mm256_min_ps(x, exp_hi), exp_lo).
        let x0 = clamp(input, expHigh)
        // n = round(x·log2 e) = floor(x·log2e + 0.5). Cephes then subtracts 1 where
        // floor(fx) > fx, which never holds (floor(v) ≤ v, and NaN compares false); the
        // subtraction of +0 it leaves is the identity on every value, so it is not repeated.
        let fx = floor(fma(x0, F8(repeating: log2e), F8(repeating: 0.5)))
        // g = x − n·ln2, in two fused steps (high and low parts of ln 2), as vfnmadd: n·(−c)
        // is exactly −(n·c). (The former (0 − n)·c differed only in the sign of a zero g when
        // x = −0 and n = 0, which the polynomial below maps to the same result, 1.)
        var x = fma(fx, F8(repeating: -ln2High), x0)
        x = fma(fx, F8(repeating: -ln2Low), x)
        let z = x * x
        var y = fma(x, F8(repeating: expP0), F8(repeating: expP1))
        y = fma(y, x, F8(repeating: expP2))
        y = fma(y, x, F8(repeating: expP3))
        y = fma(y, x, F8(repeating: expP4))
        y = fma(y, x, F8(repeating: expP5))
        y = fma(y, z, x)
        y = y + F8(repeating: 1)
        // 2^n built in the exponent bits. n is integral and within ±128 after the clamp, so adding
        // 1.5·2²³ leaves n in the low mantissa bits (cvttps2dq's result, without a conversion).
        let n = bits(fx + F8(repeating: 12_582_912)) &- U8(repeating: 0x4B40_0000 - 127)
        let scale = floats(shiftLeft23(n))
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
        let signBits = bits(a) & U8(repeating: 0x8000_0000)
        let absolute = floats(bits(a) ^ signBits)
        let one = F8(repeating: 1)
        let t = one / fma(F8(repeating: 0.3275911), absolute, one)
        var r = fma(F8(repeating: 1.061405429), t, F8(repeating: -1.453152027))
        r = fma(r, t, F8(repeating: 1.421413741))
        r = fma(r, t, F8(repeating: -0.284496736))
        r = fma(r, t, F8(repeating: 0.254829592))
        let e = exp(-(a * a))
        let v = fma(-e * t, r, one)
        return floats(bits(v) ^ signBits)
    }

    /// tanh by Eigen's rational approximation, as CTranslate2's `vec_tanh` (src/cpu/vec.h).
    @inline(__always)
    static func tanh(_ a: F8) -> F8 {
        let x = clamp(a, 7.90531110763549805)
        let x2 = x * x
        var p = fma(x2, F8(repeating: -2.76076847742355e-16), F8(repeating: 2.00018790482477e-13))
        p = fma(x2, p, F8(repeating: -8.60467152213735e-11))
        p = fma(x2, p, F8(repeating: 5.12229709037114e-08))
        p = fma(x2, p, F8(repeating: 1.48572235717979e-05))
        p = fma(x2, p, F8(repeating: 6.37261928875436e-04))
        p = fma(x2, p, F8(repeating: 4.89352455891786e-03))
        p = x * p
        var q = fma(x2, F8(repeating: 1.19825839466702e-06), F8(repeating: 1.18534705686654e-04))
        q = fma(x2, q, F8(repeating: 2.26843463243900e-03))
        q = fma(x2, q, F8(repeating: 4.89352518554385e-03))
        // |a| < 0.0004 → x (`tiny` is all ones there; blendv reads the sign bit).
        let tiny = less(floats(bits(a) & U8(repeating: 0x7FFF_FFFF)), F8(repeating: 0.0004))
        return select(tiny, x, p / q)
    }

    // MARK: One instruction each

    /// a·b + c, one rounding (vfmadd).
    @inline(__always)
    static func fma(_ a: F8, _ b: F8, _ c: F8) -> F8 {
        var r = F8()
        r._storage._value = Builtin.int_fma_Vec8xFPIEEE32(a._storage._value, b._storage._value, c._storage._value)
        return r
    }

    /// `a > b ? a : b` per lane (vmaxps).
    @inline(__always)
    static func maximum(_ a: F8, _ b: F8) -> F8 {
        var r = F8()
        r._storage._value = Builtin.int_x86_avx_max_ps_256(a._storage._value, b._storage._value)
        return r
    }

    /// vroundps toward −∞.
    @inline(__always)
    private static func floor(_ a: F8) -> F8 {
        var r = F8()
        r._storage._value = Builtin.int_floor_Vec8xFPIEEE32(a._storage._value)
        return r
    }

    /// min(max(x, −limit), limit) with the old `replacing(with:where:)` semantics, NaN kept:
    /// vminps(limit, x) is `limit < x ? limit : x`, vmaxps(−limit, v) is `−limit > v ? −limit : v`.
    @inline(__always)
    private static func clamp(_ x: F8, _ limit: Float) -> F8 {
        var upper = F8(), r = F8()
        upper._storage._value = Builtin.int_x86_avx_min_ps_256(F8(repeating: limit)._storage._value, x._storage._value)
        r._storage._value = Builtin.int_x86_avx_max_ps_256(F8(repeating: -limit)._storage._value, upper._storage._value)
        return r
    }

    /// All ones where a < b (ordered), else zero.
    @inline(__always)
    private static func less(_ a: F8, _ b: F8) -> U8 {
        var r = U8()
        r._storage._value = Builtin.sext_Vec8xInt1_Vec8xInt32(Builtin.fcmp_olt_Vec8xFPIEEE32(a._storage._value, b._storage._value))
        return r
    }

    /// `mask ? a : b` per lane (vblendvps; the mask is all ones or all zeros).
    @inline(__always)
    private static func select(_ mask: U8, _ a: F8, _ b: F8) -> F8 {
        var r = F8()
        r._storage._value = Builtin.int_x86_avx_blendv_ps_256(b._storage._value, a._storage._value, floats(mask)._storage._value)
        return r
    }

    @inline(__always)
    private static func shiftLeft23(_ v: U8) -> U8 {
        var r = U8()
        r._storage._value = Builtin.shl_Vec8xInt32(v._storage._value, U8(repeating: 23)._storage._value)
        return r
    }

    /// Eight floats from `p` (any alignment).
    @inline(__always)
    static func load(_ p: UnsafePointer<Float>) -> F8 { UnsafeRawPointer(p).loadUnaligned(as: F8.self) }

    /// Stores eight floats at `p` (any alignment).
    @inline(__always)
    static func store(_ v: F8, _ p: UnsafeMutablePointer<Float>) { UnsafeMutableRawPointer(p).storeBytes(of: v, as: F8.self) }

    @inline(__always) private static func bits(_ v: F8) -> U8 { unsafeBitCast(v, to: U8.self) }
    @inline(__always) private static func floats(_ v: U8) -> F8 { unsafeBitCast(v, to: F8.self) }

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

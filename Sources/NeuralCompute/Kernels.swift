import CBLAS
import Foundation

/// Activation after the first FFN projection (CTranslate2 `ops::ActivationType` ids).
public enum Activation: Int8, Sendable {
    case relu = 0, geluTanh = 1, swish = 2, gelu = 3, geluSigmoid = 4, tanh = 5, sigmoid = 6

    /// Applies the activation in place, eight lanes at a time with the arithmetic of CTranslate2's
    /// AVX2 functors (`relu_func`, `gelu_func`, `gelu_tanh_func`, … in src/cpu/kernels.cc), so the
    /// results are bit-identical to its CPU backend (see `VectorMath`).
    func apply(_ x: UnsafeMutablePointer<Float>, count: Int) {
        switch self {
        case .relu:
            // `x < 0 ? 0 : x` is vmaxps(0, x) exactly (−0 and NaN kept); a branch or a masked
            // store per element (what LLVM made of the loop) is several times slower.
            Self.map(x, count) { VectorMath.maximum(SIMD8<Float>(), $0) }
        case .gelu: Self.map(x, count) { Self.gelu($0) }
        case .geluTanh: Self.map(x, count) { Self.geluTanh($0) }
        case .geluSigmoid:
            Self.map(x, count) { v in v / Self.onePlus(VectorMath.expParts(-1.702 * v)) }
        case .swish: Self.map(x, count) { v in v / Self.onePlus(VectorMath.expParts(-v)) }
        case .tanh: Self.map(x, count) { VectorMath.tanh($0) }
        case .sigmoid: Self.map(x, count) { v in 1 / Self.onePlus(VectorMath.expParts(-v)) }
        }
    }

    /// 1 + exp, with the exponential's final scaling fused into the addition as GCC compiles it.
    @inline(__always)
    private static func onePlus(_ e: (mantissa: SIMD8<Float>, scale: SIMD8<Float>)) -> SIMD8<Float> {
        VectorMath.fma(e.mantissa, e.scale, SIMD8<Float>(repeating: 1))
    }

    /// 0.5·v·(1 + erf(v/√2)) (`gelu_func`).
    @inline(__always)
    private static func gelu(_ v: SIMD8<Float>) -> SIMD8<Float> {
        0.5 * (v * (1 + VectorMath.erf(v * 0.7071067811865475)))
    }

    /// 0.5·v·(1 + tanh(√(2/π)·(v + 0.044715·v³))) (`gelu_tanh_func`).
    @inline(__always)
    private static func geluTanh(_ v: SIMD8<Float>) -> SIMD8<Float> {
        let u = VectorMath.fma(SIMD8<Float>(repeating: 0.044715), v * v * v, v)
        return 0.5 * (v * (1 + VectorMath.tanh(0.7978845608028654 * u)))
    }

    /// Applies `f` to every element, the tail through a zero-padded vector.
    @inline(__always)
    private static func map(_ x: UnsafeMutablePointer<Float>, _ count: Int, _ f: (SIMD8<Float>) -> SIMD8<Float>) {
        var i = 0
        while i + 8 <= count {
            VectorMath.store(f(VectorMath.load(x + i)), x + i)
            i += 8
        }
        if i < count {
            var v = SIMD8<Float>()
            for j in i..<count { v[j - i] = x[j] }
            v = f(v)
            for j in i..<count { x[j] = v[j - i] }
        }
    }
}

/// Numeric kernels over raw float buffers. Each documents its shapes; callers own the memory.
enum Kernels {
    /// C[m,n] = alpha·A[m,k]·B[n,k]ᵀ + beta·C (row-major, B transposed: the linear-layer layout).
    static func gemmNT(m: Int, n: Int, k: Int, alpha: Float = 1,
                       a: UnsafePointer<Float>, lda: Int, b: UnsafePointer<Float>, ldb: Int,
                       beta: Float, c: UnsafeMutablePointer<Float>, ldc: Int) {
        guard m > 0, n > 0 else { return }
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, Int32(m), Int32(n), Int32(k), alpha,
                    a, Int32(lda), b, Int32(ldb), beta, c, Int32(ldc))
    }

    /// Layer normalisation of `rows` rows of `depth`, bit-identical to CTranslate2's AVX2
    /// `layer_norm` (src/cpu/kernels.cc). That function is compiled with -ffast-math, so its
    /// arithmetic is GCC's vectorisation of the plain loops, read from the wheel's disassembly:
    /// sums and sums of squares in eight lanes (squares not fused), halved to four lanes, then a
    /// four-wide step if at least four elements remain (squares fused), a reduction to one,
    /// the last 0–3 elements one by one (fused); mean = Σx·(1/n), variance =
    /// fma(Σx², 1/n, −mean²) clamped at 0, rstd = 1/√(variance + ε) and
    /// y = fma(x − mean, rstd·γ, β). `input` may equal `output`.
    static func layerNorm(_ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>,
                          rows: Int, depth: Int, gamma: [Float], beta: [Float], epsilon: Float) {
        let inverseDepth = 1 / Float(depth)
        gamma.withUnsafeBufferPointer { g in
            beta.withUnsafeBufferPointer { b in
                let gammaBase = g.baseAddress!, betaBase = b.baseAddress!
                for r in 0..<rows {
                    let x = input + r * depth
                    let y = output + r * depth
                    var i = 0
                    var sum4 = SIMD4<Float>(), squares4 = SIMD4<Float>()
                    if depth >= 8 {
                        var sum8 = SIMD8<Float>(), squares8 = SIMD8<Float>()
                        while i + 8 <= depth {
                            let v = VectorMath.load(x + i)
                            sum8 += v
                            squares8 += v * v
                            i += 8
                        }
                        sum4 = sum8.lowHalf + sum8.highHalf
                        squares4 = squares8.lowHalf + squares8.highHalf
                    }
                    if depth - i >= 4 {
                        let v = UnsafeRawPointer(x + i).loadUnaligned(as: SIMD4<Float>.self)
                        sum4 += v
                        squares4 = squares4.addingProduct(v, v)
                        i += 4
                    }
                    let sum2 = sum4.lowHalf + sum4.highHalf, squares2 = squares4.lowHalf + squares4.highHalf
                    var sum = sum2[0] + sum2[1], squares = squares2[0] + squares2[1]
                    while i < depth {
                        sum += x[i]
                        squares = squares.addingProduct(x[i], x[i])
                        i += 1
                    }
                    let mean = sum * inverseDepth
                    let variance = max((-(mean * mean)).addingProduct(squares, inverseDepth), 0)
                    let rstd = 1 / (variance + epsilon).squareRoot()
                    let mean8 = SIMD8<Float>(repeating: mean), rstd8 = SIMD8<Float>(repeating: rstd)
                    var j = 0
                    while j + 8 <= depth {
                        let v = VectorMath.load(x + j) - mean8
                        let scale = rstd8 * VectorMath.load(gammaBase + j)
                        VectorMath.store(VectorMath.fma(v, scale, VectorMath.load(betaBase + j)), y + j)
                        j += 8
                    }
                    while j < depth {
                        y[j] = b[j].addingProduct(x[j] - mean, rstd * g[j])
                        j += 1
                    }
                }
            }
        }
    }

    /// In-place softmax of one row, bit-identical to CTranslate2's AVX2 `softmax` (src/cpu/kernels.cc):
    /// every exponential by the vector `exp`, the sum by `reduce_sum`, then a multiply by 1/sum.
    static func softmax(_ x: UnsafeMutablePointer<Float>, count: Int) {
        guard count > 0 else { return }
        let maxValue = SIMD8<Float>(repeating: reduceMax(x, count: count))
        var i = 0
        while i + 8 <= count {
            VectorMath.store(VectorMath.exp(VectorMath.load(x + i) - maxValue), x + i)
            i += 8
        }
        if i < count {
            var v = SIMD8<Float>()
            for j in i..<count { v[j - i] = x[j] }
            v = VectorMath.exp(v - maxValue)
            for j in i..<count { x[j] = v[j - i] }
        }
        let r = 1 / reduceSum(x, count: count)
        for j in 0..<count { x[j] *= r }
    }

    /// In-place log-softmax of one row: x + (−max − log Σ exp(x − max)), bit-identical to
    /// CTranslate2's AVX2 `softmax` with `log` (src/cpu/kernels.cc). As there, full vectors of
    /// eight use the vector `exp` (its final scaling fused into the accumulation, as GCC built
    /// it), the `count % 8` tail and rows of at most eight use libm `expf`.
    static func logSoftmax(_ x: UnsafeMutablePointer<Float>, count: Int) {
        guard count > 0 else { return }
        let maxValue = reduceMax(x, count: count)
        var sum: Float = 0
        var i = 0
        if count > 8 {
            let m = SIMD8<Float>(repeating: maxValue)
            var acc = SIMD8<Float>()
            while i + 8 <= count {
                let e = VectorMath.expParts(VectorMath.load(x + i) - m)
                acc = VectorMath.fma(e.mantissa, e.scale, acc)
                i += 8
            }
            sum = VectorMath.sum(acc)
        }
        while i < count {
            sum += expf(x[i] - maxValue)
            i += 1
        }
        let shift = -maxValue - logf(sum)
        for j in 0..<count { x[j] += shift }
    }

    /// Σ x in the order of CTranslate2's `reduce_sum` (src/cpu/kernels.cc): eight running lane
    /// sums, reduced as `reduce_m256`, then the tail one by one; rows of at most eight in order.
    static func reduceSum(_ x: UnsafePointer<Float>, count: Int) -> Float {
        var i = 0
        var sum: Float = 0
        if count > 8 {
            var acc = SIMD8<Float>()
            while i + 8 <= count {
                acc += VectorMath.load(x + i)
                i += 8
            }
            sum = VectorMath.sum(acc)
        }
        while i < count {
            sum += x[i]
            i += 1
        }
        return sum
    }

    /// The largest element (the order is irrelevant to a maximum).
    static func reduceMax(_ x: UnsafePointer<Float>, count: Int) -> Float {
        var i = 0
        var maxValue = -Float.greatestFiniteMagnitude
        if count >= 8 {
            var acc = SIMD8<Float>(repeating: maxValue)
            while i + 8 <= count {
                // `v > acc ? v : acc`, the comparison CTranslate2's `reduce_max` makes.
                acc = VectorMath.maximum(VectorMath.load(x + i), acc)
                i += 8
            }
            maxValue = acc.max()
        }
        while i < count {
            if x[i] > maxValue { maxValue = x[i] }
            i += 1
        }
        return maxValue
    }

    /// y[i] += x[i].
    static func add(_ x: UnsafePointer<Float>, into y: UnsafeMutablePointer<Float>, count: Int) {
        for i in 0..<count { y[i] += x[i] }
    }
}

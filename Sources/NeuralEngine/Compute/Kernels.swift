import CBLAS
import Foundation

/// Activation after the first FFN projection (CTranslate2 `ops::ActivationType` ids).
public enum Activation: Int8, Sendable {
    case relu = 0, geluTanh = 1, swish = 2, gelu = 3, geluSigmoid = 4, tanh = 5, sigmoid = 6

    /// Applies the activation in place.
    func apply(_ x: UnsafeMutablePointer<Float>, count: Int) {
        switch self {
        case .relu:
            for i in 0..<count where x[i] < 0 { x[i] = 0 }
        case .gelu:
            // 0.5·x·(1 + erf(x/√2)) (CTranslate2 `gelu`).
            for i in 0..<count { let v = x[i]; x[i] = 0.5 * v * (1 + erff(v * 0.70710678118654752)) }
        case .geluTanh:
            // 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))).
            for i in 0..<count {
                let v = x[i]
                x[i] = 0.5 * v * (1 + tanhf(0.7978845608028654 * (v + 0.044715 * v * v * v)))
            }
        case .geluSigmoid:
            for i in 0..<count { let v = x[i]; x[i] = v / (1 + expf(-1.702 * v)) }
        case .swish:
            for i in 0..<count { let v = x[i]; x[i] = v / (1 + expf(-v)) }
        case .tanh:
            for i in 0..<count { x[i] = tanhf(x[i]) }
        case .sigmoid:
            for i in 0..<count { x[i] = 1 / (1 + expf(-x[i])) }
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

    /// C[m,n] = A[m,k]·B[k,n] + beta·C (row-major, no transposes).
    static func gemmNN(m: Int, n: Int, k: Int, a: UnsafePointer<Float>, lda: Int,
                       b: UnsafePointer<Float>, ldb: Int, beta: Float,
                       c: UnsafeMutablePointer<Float>, ldc: Int) {
        guard m > 0, n > 0 else { return }
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, Int32(m), Int32(n), Int32(k), 1,
                    a, Int32(lda), b, Int32(ldb), beta, c, Int32(ldc))
    }

    /// Layer normalisation of `rows` rows of `depth`, as CTranslate2's CPU kernel computes it
    /// (sum and sum of squares in one pass, variance clamped at 0). `input` may equal `output`.
    static func layerNorm(_ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>,
                          rows: Int, depth: Int, gamma: [Float], beta: [Float], epsilon: Float) {
        gamma.withUnsafeBufferPointer { g in
            beta.withUnsafeBufferPointer { b in
                for r in 0..<rows {
                    let x = input + r * depth
                    let y = output + r * depth
                    var sum: Float = 0
                    var squares: Float = 0
                    for j in 0..<depth {
                        sum += x[j]
                        squares += x[j] * x[j]
                    }
                    let mean = sum / Float(depth)
                    let variance = max(squares / Float(depth) - mean * mean, 0)
                    let rstd = 1 / (variance + epsilon).squareRoot()
                    for j in 0..<depth { y[j] = (x[j] - mean) * rstd * g[j] + b[j] }
                }
            }
        }
    }

    /// In-place softmax of one row.
    static func softmax(_ x: UnsafeMutablePointer<Float>, count: Int) {
        var maxValue = -Float.greatestFiniteMagnitude
        for i in 0..<count where x[i] > maxValue { maxValue = x[i] }
        var sum: Float = 0
        for i in 0..<count {
            let e = expf(x[i] - maxValue)
            x[i] = e
            sum += e
        }
        let r = 1 / sum
        for i in 0..<count { x[i] *= r }
    }

    /// In-place log-softmax of one row: x − max − log Σ exp(x − max) (CTranslate2 `softmax` with log).
    static func logSoftmax(_ x: UnsafeMutablePointer<Float>, count: Int) {
        var maxValue = -Float.greatestFiniteMagnitude
        for i in 0..<count where x[i] > maxValue { maxValue = x[i] }
        var sum: Float = 0
        for i in 0..<count { sum += expf(x[i] - maxValue) }
        let shift = -maxValue - logf(sum)
        for i in 0..<count { x[i] += shift }
    }

    /// y[i] += x[i].
    static func add(_ x: UnsafePointer<Float>, into y: UnsafeMutablePointer<Float>, count: Int) {
        for i in 0..<count { y[i] += x[i] }
    }
}

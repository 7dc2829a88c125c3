import Foundation
import TranslationCore

/// Layer-normalisation parameters.
struct LayerNormParams: Sendable {
    let gamma: [Float]
    let beta: [Float]
    let epsilon: Float

    func apply(_ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, rows: Int) {
        Kernels.layerNorm(x, y, rows: rows, depth: gamma.count, gamma: gamma, beta: beta, epsilon: epsilon)
    }
}

/// A linear layer y = x·Wᵀ + b, W [outputs, inputs], held as float32 or as per-row int8.
/// Immutable and shared by every worker; scratch lives in the caller's `Workspace`.
struct Linear: Sendable {
    let outputs: Int
    let inputs: Int
    /// float32 weights, nil when quantized.
    let float: FloatMatrix?
    /// int8 weights with per-row scales, nil when float.
    let int8: Int8Matrix?
    let bias: [Float]?

    var isQuantized: Bool { int8 != nil }

    /// y[rows, outputs] = activation(x·Wᵀ + b) (+ residual). `y` must not alias `x`.
    func forward(_ x: UnsafePointer<Float>, rows: Int, into y: UnsafeMutablePointer<Float>,
                 activation: Activation? = nil, residual: UnsafePointer<Float>? = nil,
                 workspace: Workspace) {
        guard rows > 0 else { return }
        if let int8 {
            forwardInt8(int8, x, rows: rows, into: y, activation: activation, workspace: workspace)
        } else {
            float?.multiply(x, m: rows, into: y, threads: workspace.threads)
            if let bias {
                bias.withUnsafeBufferPointer { b in
                    for r in 0..<rows { Kernels.add(b.baseAddress!, into: y + r * outputs, count: outputs) }
                }
            }
            activation?.apply(y, count: rows * outputs)
        }
        if let residual { Kernels.add(residual, into: y, count: rows * outputs) }
    }

    /// Dynamic per-row int8 quantization of `x`, int8 GEMM, then v·(1/a_scale)/w_scale + b
    /// (CTranslate2 `dequantize_gemm_output_row`), activation fused.
    private func forwardInt8(_ w: Int8Matrix, _ x: UnsafePointer<Float>, rows: Int, into y: UnsafeMutablePointer<Float>,
                             activation: Activation?, workspace: Workspace) {
        let acc = workspace.int32Buffer(rows * outputs)
        let ascale = workspace.scaleBuffer(rows)
        let input = w.quantize(x, m: rows, scales: ascale, workspace: workspace)
        w.multiply(input, m: rows, into: acc, threads: workspace.threads)
        w.scales.withUnsafeBufferPointer { ws in
            for r in 0..<rows {
                let ra = 1 / ascale[r]
                let c = acc + r * outputs
                let out = y + r * outputs
                if let bias {
                    for j in 0..<outputs { out[j] = Float(c[j]) * ra / ws[j] + bias[j] }
                } else {
                    for j in 0..<outputs { out[j] = Float(c[j]) * ra / ws[j] }
                }
            }
        }
        activation?.apply(y, count: rows * outputs)
    }
}

/// An embedding table, float32 or int8 with per-row scales (gathered, then dequantized). It
/// reads the same packed matrix as a linear layer, so a table tied to the output projection
/// is stored once.
struct Embedding: Sendable {
    enum Table: Sendable {
        case float(FloatMatrix)
        case int8(Int8Matrix)
    }

    let table: Table

    var rows: Int {
        switch table {
        case .float(let m): m.rows
        case .int8(let m): m.rows
        }
    }

    var depth: Int {
        switch table {
        case .float(let m): m.depth
        case .int8(let m): m.depth
        }
    }

    /// Writes row `id` into `out`.
    func gather(_ id: Int, into out: UnsafeMutablePointer<Float>) {
        switch table {
        case .float(let m): m.row(id, into: out)
        case .int8(let m): m.row(id, into: out)
        }
    }
}

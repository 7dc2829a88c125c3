import Foundation
import NeuralCompute
import TranslationCore

/// Layer-normalisation parameters.
struct LayerNormParams: Sendable {
    let gamma: [Float]
    let beta: [Float]
    let epsilon: Float

    /// y = LayerNorm(x) over `rows` rows (`x` may equal `y`), on `backend`.
    func apply(_ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, rows: Int, on backend: some ComputeBackend) {
        backend.layerNorm(x, y, rows: rows, depth: gamma.count, gamma: gamma, beta: beta, epsilon: epsilon)
    }
}

/// A linear layer y = x·Wᵀ + b, W [outputs, inputs], held as float32 or as per-row int8 in
/// the form `Backend` prepared. Immutable and shared by every worker; scratch lives in the
/// caller's `Workspace`.
struct Linear<Backend: ComputeBackend>: Sendable {
    let outputs: Int
    let inputs: Int
    /// float32 weights, nil when quantized.
    let float: Backend.FloatWeights?
    /// int8 weights with per-row scales, nil when float.
    let int8: Backend.Int8Weights?
    let bias: [Float]?

    var isQuantized: Bool { int8 != nil }

    /// y[rows, outputs] = activation(x·Wᵀ + b) (+ residual) on `backend`, the one that prepared
    /// the weights (`TransformerWeights.backend`). `y` must not alias `x`.
    func forward(_ x: UnsafePointer<Float>, rows: Int, into y: UnsafeMutablePointer<Float>,
                 activation: Activation? = nil, residual: UnsafePointer<Float>? = nil,
                 on backend: Backend, workspace: Workspace) {
        guard rows > 0 else { return }
        if let int8 {
            backend.multiply(int8, x, m: rows, bias: bias, into: y, workspace: workspace)
        } else if let float {
            backend.multiply(float, x, m: rows, into: y, threads: workspace.threads)
            if let bias {
                bias.withUnsafeBufferPointer { b in
                    for r in 0..<rows { backend.add(b.baseAddress!, into: y + r * outputs, count: outputs) }
                }
            }
        }
        if let activation { backend.activate(activation, y, count: rows * outputs) }
        if let residual { backend.add(residual, into: y, count: rows * outputs) }
    }
}

/// An embedding table, float32 or int8 with per-row scales (gathered, then dequantized). It
/// reads the same packed matrix as a linear layer, so a table tied to the output projection
/// is stored once.
struct Embedding<Backend: ComputeBackend>: Sendable {
    enum Table: Sendable {
        case float(Backend.FloatWeights)
        case int8(Backend.Int8Weights)
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

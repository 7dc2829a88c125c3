import Foundation
import NeuralCompute
import TranslationCore

/// Looks variables up by name for `TransformerWeights`, with errors naming file and variable.
struct VariableSource<Backend: ComputeBackend> {
    let variables: [String: RawVariable]
    let file: String
    let epsilon: Float
    /// Prepares every weight matrix for its products (packing them for its kernels).
    let backend: Backend
    /// Conversions by byte range: tied weights (aliases: shared embeddings and output
    /// projection) are converted and packed once and share one matrix instead of one copy each.
    private let memo = ConversionMemo<Backend>()

    init(variables: [String: RawVariable], file: String, epsilon: Float, backend: Backend) {
        self.variables = variables
        self.backend = backend
        self.file = file
        self.epsilon = epsilon
    }

    /// Rows of the generated sinusoidal table (CTranslate2 starts at 500 and grows on demand;
    /// a fixed table keeps the weights immutable, and inputs are capped below this).
    static var sinusoidRows: Int { 2048 }

    func require(_ name: String) throws -> RawVariable {
        guard let raw = variables[name] else {
            throw TranslationError(.engineFailure, "Malformed model \(file): variable '\(name)' is missing.")
        }
        return raw
    }

    func intScalar(_ name: String, default value: Int) throws -> Int {
        guard let raw = variables[name] else { return value }
        guard raw.count == 1 else {
            throw TranslationError(.engineFailure, "Malformed model \(file): '\(name)' should be a scalar, has shape \(raw.shape).")
        }
        switch raw.type {
        case .int8: return Int(Int8(bitPattern: raw.byte(0)))
        case .int16: return Int(Int16(bitPattern: UInt16(raw.byte(0)) | UInt16(raw.byte(1)) << 8))
        case .int32: return Int(Int32(bitPattern: UInt32(raw.byte(0)) | UInt32(raw.byte(1)) << 8 | UInt32(raw.byte(2)) << 16 | UInt32(raw.byte(3)) << 24))
        default: return Int(try WeightConversion.floats(raw, scale: nil)[0])
        }
    }

    func floats(_ name: String, count: Int? = nil) throws -> [Float] {
        let raw = try require(name)
        let values = try WeightConversion.floats(raw, scale: variables[name + "_scale"])
        if let count, values.count != count {
            throw TranslationError(.engineFailure, "Malformed model \(file): '\(name)' has \(values.count) values, expected \(count).")
        }
        return values
    }

    func norm(_ scope: String) throws -> LayerNormParams {
        let gamma = try floats(scope + "/gamma")
        let beta = try floats(scope + "/beta", count: gamma.count)
        return LayerNormParams(gamma: gamma, beta: beta, epsilon: epsilon)
    }

    func optionalNorm(_ scope: String) throws -> LayerNormParams? {
        variables[scope + "/gamma"] == nil ? nil : try norm(scope)
    }

    func linear(_ scope: String, inputs: Int, outputs: Int?, quantized: Bool) throws -> Linear<Backend> {
        let raw = try require(scope + "/weight")
        guard raw.shape.count == 2, raw.shape[1] == inputs, outputs == nil || raw.shape[0] == outputs else {
            throw TranslationError(.engineFailure, "Malformed model \(file): '\(scope)/weight' has shape \(raw.shape), expected [\(outputs.map(String.init) ?? "N"), \(inputs)].")
        }
        let rows = raw.shape[0]
        let bias = variables[scope + "/bias"] == nil ? nil : try floats(scope + "/bias", count: rows)
        let scale = variables[scope + "/weight_scale"]
        // Linear weights are packed for the GEMM, so only the packed form is remembered: keeping
        // the row-major conversion too would hold the model twice while loading.
        if quantized {
            return Linear(outputs: rows, inputs: inputs, float: nil, int8: try int8Matrix(raw, scale: scale), bias: bias)
        }
        return Linear(outputs: rows, inputs: inputs, float: try floatMatrix(raw, scale: scale), int8: nil, bias: bias)
    }

    /// The packed float matrix of `raw` [rows, depth]; tied variables (same bytes) share one.
    func floatMatrix(_ raw: RawVariable, scale: RawVariable?) throws -> Backend.FloatWeights {
        let key = raw.bytes.startIndex..<raw.bytes.endIndex
        if let hit = memo.floatMatrices[key] { return hit }
        let matrix = backend.floatMatrix(rowMajor: try WeightConversion.floats(raw, scale: scale),
                                         rows: raw.shape[0], depth: raw.count / max(raw.shape[0], 1))
        memo.floatMatrices[key] = matrix
        return matrix
    }

    /// The packed int8 matrix of `raw` [rows, depth]; tied variables (same bytes) share one.
    func int8Matrix(_ raw: RawVariable, scale: RawVariable?) throws -> Backend.Int8Weights {
        let key = raw.bytes.startIndex..<raw.bytes.endIndex
        if let hit = memo.int8Matrices[key] { return hit }
        let (values, scales) = try WeightConversion.int8Rows(raw, scale: scale)
        let matrix = backend.int8Matrix(rowMajor: values, scales: scales, rows: raw.shape[0], depth: raw.count / max(raw.shape[0], 1))
        memo.int8Matrices[key] = matrix
        return matrix
    }

    func attention(_ scope: String, cross: Bool, depth: Int, quantized: Bool) throws -> AttentionWeights<Backend> {
        AttentionWeights(
            norm: try norm(scope + "/layer_norm"),
            query: try linear(scope + "/linear_0", inputs: depth, outputs: cross ? depth : 3 * depth, quantized: quantized),
            memoryKV: cross ? try linear(scope + "/linear_1", inputs: depth, outputs: 2 * depth, quantized: quantized) : nil,
            output: try linear(scope + (cross ? "/linear_2" : "/linear_1"), inputs: depth, outputs: depth, quantized: quantized))
    }

    func ffn(_ scope: String, depth: Int, quantized: Bool) throws -> FeedForwardWeights<Backend> {
        let inner = try linear(scope + "/linear_0", inputs: depth, outputs: nil, quantized: quantized)
        return FeedForwardWeights(
            norm: try norm(scope + "/layer_norm"),
            inner: inner,
            outer: try linear(scope + "/linear_1", inputs: inner.outputs, outputs: depth, quantized: quantized))
    }

    func embeddingStage(_ scope: String, tableName: String, quantized: Bool) throws -> EmbeddingStage<Backend> {
        let raw = try require(tableName + "/weight")
        guard raw.shape.count == 2, raw.shape[0] > 0, raw.shape[1] > 1 else {
            throw TranslationError(.engineFailure, "Malformed model \(file): '\(tableName)/weight' has shape \(raw.shape).")
        }
        let depth = raw.shape[1]
        let scaleVar = variables[tableName + "/weight_scale"]
        let table: Embedding<Backend>
        if quantized && (raw.type == .int8 || raw.type == .int16) {
            table = Embedding(table: .int8(try int8Matrix(raw, scale: scaleVar)))
        } else {
            table = Embedding(table: .float(try floatMatrix(raw, scale: scaleVar)))
        }
        // scale_embeddings: an int8 flag (1 → √D) or a float value (≠ 1 → that value)
        // (CTranslate2 transformer.cc build_embeddings_scale); absent means √D.
        var scale: Float? = Float(depth).squareRoot()
        if let flag = variables[scope + "/scale_embeddings"] {
            if flag.type == .int8 {
                scale = flag.bytes.first == 0 ? nil : Float(depth).squareRoot()
            } else {
                let value = try WeightConversion.floats(flag, scale: nil)[0]
                scale = value == 1 ? nil : value
            }
        }
        let positions: [Float]
        let positionCount: Int
        if variables[scope + "/position_encodings/encodings"] != nil {
            let enc = try require(scope + "/position_encodings/encodings")
            guard enc.shape.count == 2, enc.shape[1] == depth else {
                throw TranslationError(.engineFailure, "Malformed model \(file): '\(scope)/position_encodings/encodings' has shape \(enc.shape), expected [P, \(depth)].")
            }
            positions = try floats(scope + "/position_encodings/encodings")
            positionCount = enc.shape[0]
        } else {
            positions = Self.sinusoids(rows: Self.sinusoidRows, depth: depth)
            positionCount = Self.sinusoidRows
        }
        return EmbeddingStage(table: table, scale: scale, positions: positions, positionCount: positionCount)
    }

    /// CTranslate2's generated table: row t = [sin((t+1)·ts) | cos((t+1)·ts)],
    /// ts_j = exp(−j·ln(10000)/(D/2−1)) (layers/common.cc).
    static func sinusoids(rows: Int, depth: Int) -> [Float] {
        let half = depth / 2
        let increment = logf(10000) / Float(half - 1)
        let timescales = (0..<half).map { expf(-increment * Float($0)) }
        var table = [Float](repeating: 0, count: rows * depth)
        for t in 0..<rows {
            for j in 0..<half {
                let x = Float(t + 1) * timescales[j]
                table[t * depth + j] = sinf(x)
                table[t * depth + half + j] = cosf(x)
            }
        }
        return table
    }

    /// Number of consecutive `prefix<i>/…` layers.
    func layerCount(_ prefix: String) -> Int {
        var count = 0
        while variables.keys.contains(where: { $0.hasPrefix("\(prefix)\(count)/") }) { count += 1 }
        return count
    }
}

/// The memo of `VariableSource`; a class because lookups happen in non-mutating methods.
/// Used only while one model loads, on one thread.
final class ConversionMemo<Backend: ComputeBackend> {
    /// Packed weights (linear layers and embedding tables), by the byte range they came from.
    var floatMatrices: [Range<Data.Index>: Backend.FloatWeights] = [:]
    var int8Matrices: [Range<Data.Index>: Backend.Int8Weights] = [:]
}

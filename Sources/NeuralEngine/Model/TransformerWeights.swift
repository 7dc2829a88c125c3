import Foundation
import NeuralCompute
import TranslationCore

/// Attention weights: self-attention has a fused Q;K;V projection (`linear_0`, rows Q then K
/// then V) and an output projection; cross-attention has Q (`linear_0`), fused K;V of the
/// encoder output (`linear_1`) and the output projection (`linear_2`).
struct AttentionWeights<Backend: ComputeBackend>: Sendable {
    let norm: LayerNormParams
    let query: Linear<Backend>          // [3D, D] fused QKV for self-attention, [D, D] for cross-attention
    let memoryKV: Linear<Backend>?      // [2D, D], cross-attention only
    let output: Linear<Backend>
}

struct FeedForwardWeights<Backend: ComputeBackend>: Sendable {
    let norm: LayerNormParams
    let inner: Linear<Backend>
    let outer: Linear<Backend>
}

// The layers are classes: the encoder and decoder take each layer out of its array once per
// pass or step, and a class is one reference to retain where a struct of this many arrays was
// copied field by field (in code specialised for a backend the copy was not elided).

/// One encoder layer's weights.
final class EncoderLayerWeights<Backend: ComputeBackend>: Sendable {
    let selfAttention: AttentionWeights<Backend>
    let ffn: FeedForwardWeights<Backend>

    init(selfAttention: AttentionWeights<Backend>, ffn: FeedForwardWeights<Backend>) {
        self.selfAttention = selfAttention
        self.ffn = ffn
    }
}

/// One decoder layer's weights.
final class DecoderLayerWeights<Backend: ComputeBackend>: Sendable {
    let selfAttention: AttentionWeights<Backend>
    let crossAttention: AttentionWeights<Backend>
    let ffn: FeedForwardWeights<Backend>

    init(selfAttention: AttentionWeights<Backend>, crossAttention: AttentionWeights<Backend>,
         ffn: FeedForwardWeights<Backend>) {
        self.selfAttention = selfAttention
        self.crossAttention = crossAttention
        self.ffn = ffn
    }
}

/// One side's embedding stage: table, scale and absolute positions.
struct EmbeddingStage<Backend: ComputeBackend>: Sendable {
    let table: Embedding<Backend>
    /// Multiplier of the embeddings (√D for the usual flag), nil for none.
    let scale: Float?
    /// Position table [P, D]; row t is added at position t.
    let positions: [Float]
    let positionCount: Int
}

/// The immutable weights of a sequence-to-sequence Transformer (CTranslate2 TransformerSpec),
/// loaded once and shared by every replica, prepared for and run on `Backend`.
final class TransformerWeights<Backend: ComputeBackend>: Sendable {
    let depth: Int
    let heads: Int
    let preNorm: Bool
    let activation: Activation
    let encoderEmbedding: EmbeddingStage<Backend>
    let decoderEmbedding: EmbeddingStage<Backend>
    let encoderLayers: [EncoderLayerWeights<Backend>]
    let decoderLayers: [DecoderLayerWeights<Backend>]
    let encoderNorm: LayerNormParams?
    let decoderNorm: LayerNormParams?
    let projection: Linear<Backend>
    /// Whether linear layers run as int8 (the file holds int8 or int16 weights).
    let quantized: Bool
    /// The backend that prepared the weights and runs every operation on them (encoder,
    /// decoder, search): stored once per model, with its concrete type, so its calls are direct.
    /// The weights are packed for its kernels, so no other backend may multiply them.
    let backend: Backend

    /// Target vocabulary size (rows of the output projection).
    var targetVocabularySize: Int { projection.outputs }
    /// Source vocabulary size.
    var sourceVocabularySize: Int { encoderEmbedding.table.rows }

    /// Builds the model from parsed variables for `backend`; `file` names the source in errors.
    init(binary: ModelBinary, config: ModelConfig, file: String, backend: Backend) throws {
        self.backend = backend
        let v = VariableSource(variables: binary.variables, file: file, epsilon: config.layerNormEpsilon ?? 1e-5,
                               backend: backend)
        for unsupported in ["encoder/layer_0/self_attention/relative_position_keys",
                            "encoder/layer_0/self_attention/relative_attention_bias",
                            "encoder/layer_0/self_attention/rotary_dim",
                            "encoder/layer_0/ffn/linear_0_noact/weight",
                            "decoder/alibi", "decoder/project_in/weight",
                            "encoder/layernorm_embedding/gamma", "encoder/embeddings_1/weight"] {
            if let raw = binary.variables[unsupported], !(raw.count == 1 && raw.bytes.allSatisfy { $0 == 0 }) {
                throw TranslationError(.engineFailure, "Unsupported model \(file): '\(unsupported)' is present (that Transformer variant is not supported).")
            }
        }
        if let flag = binary.variables["decoder/start_from_zero_embedding"], flag.bytes.contains(where: { $0 != 0 }) {
            throw TranslationError(.engineFailure, "Unsupported model \(file): decoder/start_from_zero_embedding is set (Marian models are not supported yet).")
        }
        quantized = binary.variables.contains { name, raw in
            name.hasSuffix("weight") && (raw.type == .int8 || raw.type == .int16)
        }
        let encHeads = try v.intScalar("encoder/num_heads", default: 8)
        let decHeads = try v.intScalar("decoder/num_heads", default: 8)
        guard encHeads == decHeads else {
            throw TranslationError(.engineFailure, "Unsupported model \(file): encoder and decoder head counts differ (\(encHeads) vs \(decHeads)).")
        }
        heads = encHeads
        preNorm = try v.intScalar("encoder/pre_norm", default: 1) != 0
        let decPreNorm = try v.intScalar("decoder/pre_norm", default: 1) != 0
        guard preNorm == decPreNorm else {
            throw TranslationError(.engineFailure, "Unsupported model \(file): encoder and decoder differ in pre-norm.")
        }
        let act = try v.intScalar("encoder/activation", default: 0)
        guard let activation = Activation(rawValue: Int8(truncatingIfNeeded: act)),
              try v.intScalar("decoder/activation", default: 0) == act else {
            throw TranslationError(.engineFailure, "Unsupported model \(file): activation id \(act).")
        }
        self.activation = activation
        let q = quantized
        encoderEmbedding = try v.embeddingStage("encoder", tableName: "encoder/embeddings_0", quantized: q)
        decoderEmbedding = try v.embeddingStage("decoder", tableName: "decoder/embeddings", quantized: q)
        let depth = encoderEmbedding.table.depth
        self.depth = depth
        guard decoderEmbedding.table.depth == depth, depth % encHeads == 0 else {
            throw TranslationError(.engineFailure, "Malformed model \(file): embedding widths \(depth)/\(decoderEmbedding.table.depth) do not fit \(encHeads) heads.")
        }
        let encCount = v.layerCount("encoder/layer_")
        let decCount = v.layerCount("decoder/layer_")
        guard encCount > 0, decCount > 0 else {
            throw TranslationError(.engineFailure, "Malformed model \(file): found \(encCount) encoder and \(decCount) decoder layers.")
        }
        encoderLayers = try (0..<encCount).map { i in
            let s = "encoder/layer_\(i)"
            return EncoderLayerWeights(
                selfAttention: try v.attention(s + "/self_attention", cross: false, depth: depth, quantized: q),
                ffn: try v.ffn(s + "/ffn", depth: depth, quantized: q))
        }
        decoderLayers = try (0..<decCount).map { i in
            let s = "decoder/layer_\(i)"
            return DecoderLayerWeights(
                selfAttention: try v.attention(s + "/self_attention", cross: false, depth: depth, quantized: q),
                crossAttention: try v.attention(s + "/attention", cross: true, depth: depth, quantized: q),
                ffn: try v.ffn(s + "/ffn", depth: depth, quantized: q))
        }
        let pre = preNorm
        encoderNorm = pre ? try v.optionalNorm("encoder/layer_norm") : nil
        decoderNorm = pre ? try v.optionalNorm("decoder/layer_norm") : nil
        projection = try v.linear("decoder/projection", inputs: depth, outputs: nil, quantized: q)
        guard projection.outputs == decoderEmbedding.table.rows else {
            throw TranslationError(.engineFailure, "Malformed model \(file): projection has \(projection.outputs) rows, target embeddings \(decoderEmbedding.table.rows).")
        }
    }
}

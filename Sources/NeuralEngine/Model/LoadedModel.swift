import NeuralCompute

/// What `Translator` needs of a model's weights, whatever backend prepared them: the backend is
/// a generic parameter of the weights, and this protocol hides it from the translator's callers.
protocol LoadedModel: Sendable {
    /// Whether linear layers run as int8.
    var quantized: Bool { get }
    /// Source vocabulary size (rows of the encoder's embedding table).
    var sourceVocabularySize: Int { get }
    /// Target vocabulary size (rows of the output projection).
    var targetVocabularySize: Int { get }
    /// Positions the encoder's position table covers.
    var sourcePositionCount: Int { get }
    /// Positions the decoder's position table covers.
    var targetPositionCount: Int { get }

    /// Encodes `ids` and searches the best hypothesis of each (greedy or beam, per `options`).
    func translate(_ ids: [[Int]], options: DecodingOptions, startID: Int, endID: Int,
                   workspace: Workspace) -> [Hypothesis]
}

extension TransformerWeights: LoadedModel {
    var sourcePositionCount: Int { encoderEmbedding.positionCount }
    var targetPositionCount: Int { decoderEmbedding.positionCount }

    // The CPU backend's specialisation is compiled in: a call through `LoadedModel` with CPU
    // weights checks the type once and runs code specialised for it (direct kernel calls, known
    // layouts), as before the backend was a generic parameter.
    @_specialize(exported: false, where Backend == CPUBackend)
    func translate(_ ids: [[Int]], options: DecodingOptions, startID: Int, endID: Int,
                   workspace: Workspace) -> [Hypothesis] {
        let encoded = encode(ids, workspace: workspace)
        return Search(weights: self, options: options, startID: startID, endID: endID, workspace: workspace).run(encoded)
    }
}

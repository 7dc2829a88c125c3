/// The operations a Transformer needs from the hardware it runs on (CTranslate2's `primitives`
/// with its `dispatch`): weights prepared for the backend's matrix products, the products
/// themselves (float32 and int8), the vector operations and the two attention products, and
/// the thread count of any library the backend drives. NeuralEngine's encoder, decoder, layers
/// and search are generic over it and call only these; `CPUBackend` implements them with
/// NeuralKernelsAVX512, NeuralKernelsAVX2, OpenBLAS and this target's Swift kernels.
///
/// Every call is one whole matrix or row operation (a GEMM, a layer norm over all rows, one
/// softmax row), never one element: the model's weights hold the backend once, with its
/// concrete type, so dispatch costs nothing in the hot loops.
///
/// Contract: results are the ones CTranslate2 computes on the same kind of device (the
/// reference tests compare tokens and scores); pointers are host memory the caller owns for the
/// length of the call; a backend keeps no per-call state of its own (scratch lives in the
/// caller's `Workspace`), so one value serves every worker thread.
///
/// Adding a backend (CUDA, Metal): one new target (say `NeuralBackendCUDA`, with its C shim)
/// that depends on this one and holds a type conforming to `ComputeBackend`:
/// - `FloatWeights`/`Int8Weights` are its own weight types (device buffers, in the layout its
///   GEMMs read), made once at load by `floatMatrix`/`int8Matrix`;
/// - the GEMMs, norms, softmaxes and attention products run its kernels, and must match
///   CTranslate2 on that device (the reference tests, run with that backend, check it);
/// - `unavailableReason` says why it cannot run on this machine (no device, no driver);
/// - `setLibraryThreads` sets its library's threads or streams, or does nothing.
/// The composition root then passes it to the neural engine (`NeuralEngine.Configuration.backend`);
/// the encoder, decoder and search do not change.
public protocol ComputeBackend: Sendable {
    /// A float32 weight matrix W [rows, depth] prepared for this backend's `multiply`.
    associatedtype FloatWeights: WeightMatrix
    /// An int8 weight matrix W [rows, depth] with per-row scales prepared for this backend's
    /// `multiply`.
    associatedtype Int8Weights: WeightMatrix

    /// Why this backend cannot run on this machine (a sentence for the user), nil when it can.
    /// Checked before a model is loaded.
    var unavailableReason: String? { get }

    // MARK: Weights, prepared once at load

    /// The float32 matrix W [rows, depth] (row-major `values`) prepared for `multiply`.
    func floatMatrix(rowMajor values: consuming [Float], rows: Int, depth: Int) -> FloatWeights

    /// The int8 matrix W [rows, depth] (row-major `values`, per-row `scales`) prepared for
    /// `multiply`.
    func int8Matrix(rowMajor values: consuming [Int8], scales: [Float], rows: Int, depth: Int) -> Int8Weights

    // MARK: Matrix products, y = x·Wᵀ

    /// y[m, rows] = x[m, depth]·Wᵀ, split over `threads` threads.
    func multiply(_ w: FloatWeights, _ x: UnsafePointer<Float>, m: Int, into y: UnsafeMutablePointer<Float>, threads: Int)

    /// y[m, rows] = x[m, depth]·Wᵀ (+ bias) the way CTranslate2 multiplies int8 weights: each
    /// row of x quantized to int8 with its own scale, an exact int32 product, then dequantized.
    func multiply(_ w: Int8Weights, _ x: UnsafePointer<Float>, m: Int, bias: [Float]?,
                  into y: UnsafeMutablePointer<Float>, workspace: Workspace)

    // MARK: Vector operations

    /// Layer normalisation of `rows` rows of `depth` (`x` may equal `y`).
    func layerNorm(_ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, rows: Int, depth: Int,
                   gamma: [Float], beta: [Float], epsilon: Float)

    /// In-place softmax of one row.
    func softmax(_ x: UnsafeMutablePointer<Float>, count: Int)

    /// In-place log-softmax of one row.
    func logSoftmax(_ x: UnsafeMutablePointer<Float>, count: Int)

    /// y[i] += x[i] for i < count.
    func add(_ x: UnsafePointer<Float>, into y: UnsafeMutablePointer<Float>, count: Int)

    /// Applies `activation` in place to `count` values.
    func activate(_ activation: Activation, _ x: UnsafeMutablePointer<Float>, count: Int)

    // MARK: Attention (one sequence and head per call)

    /// out[i·ldo + t] = alpha · Σₚ q[i·ldq + p]·keys[t·ldk + p] for i < m, t < n, p < dh, summed
    /// in `order` (CTranslate2's order for that row count); `scratch` as `AttentionKernels.scores`.
    func attentionScores(q: UnsafePointer<Float>, ldq: Int, m: Int, keys: UnsafePointer<Float>, ldk: Int, n: Int,
                         dh: Int, alpha: Float, order: AttentionKernels.Order, out: UnsafeMutablePointer<Float>,
                         ldo: Int, scratch: UnsafeMutablePointer<Float>)

    /// out[i·ldo + j] = Σₜ weights[i·ldw + t]·values[t·ldv + j] for i < m, j < dh, t < n.
    func attentionWeightedSum(weights: UnsafePointer<Float>, ldw: Int, m: Int, values: UnsafePointer<Float>, ldv: Int,
                              n: Int, dh: Int, out: UnsafeMutablePointer<Float>, ldo: Int)

    // MARK: Threads

    /// Sets the threads of the library the backend drives (OpenBLAS on the CPU): process-wide,
    /// so set once at start, never while another thread translates. Its own kernels take their
    /// thread count per call (`Workspace.threads`).
    func setLibraryThreads(_ count: Int)
}

/// A weight matrix W [rows, depth] as a backend prepared it. Its rows can be read back into
/// host memory: an embedding lookup in a table (tied to the output projection or not) reads
/// the same matrix the projection multiplies, so a tied table is stored once.
public protocol WeightMatrix: Sendable {
    /// Rows of W (outputs of y = x·Wᵀ).
    var rows: Int { get }
    /// Columns of W (inputs of y = x·Wᵀ).
    var depth: Int { get }
    /// Row j of W, as float32 (dequantized when W is int8), into `out` (`depth` floats).
    func row(_ j: Int, into out: UnsafeMutablePointer<Float>)
}

/// The operations a Transformer needs from the hardware it runs on (CTranslate2's `primitives`
/// with its `dispatch`): weights prepared for the backend's matrix products, the products
/// themselves (float32 and int8), the vector operations and the two attention products, and
/// the thread count of any library the backend drives. `Encoder`, `Decoder`, `Linear`,
/// `LayerNormParams` and `Search` call only these; `CPUBackend` implements them with
/// NeuralKernelsAVX512, NeuralKernelsAVX2, OpenBLAS and the Swift kernels of this folder.
///
/// Every call is one whole matrix or row operation (a GEMM, a layer norm over all rows, one
/// softmax row), never one element: a backend is a value stored once per model
/// (`TransformerWeights.backend`) and called with its concrete type, so dispatch costs nothing
/// in the hot loops.
///
/// Contract: results are the ones CTranslate2 computes on the same kind of device (the
/// reference tests compare tokens and scores); pointers are host memory the caller owns for the
/// length of the call; a backend keeps no per-call state of its own (scratch lives in the
/// caller's `Workspace`), so one value serves every worker thread.
///
/// Adding a backend (CUDA, Metal): one new target (say `NeuralBackendCUDA`, with its C shim)
/// holding a type that conforms to `ComputeBackend`:
/// - `floatMatrix`/`int8Matrix` upload the weights once at load, in the layout its GEMM reads
///   (a `FloatMatrix`/`Int8Matrix` then records which kernel packed it, as `FloatKernel`/
///   `Int8Kernel` do for the CPU);
/// - the GEMMs, norms, softmaxes and attention products run its kernels, and must match
///   CTranslate2 on that device (the reference tests, run with that backend, check it);
/// - `setLibraryThreads` sets its library's threads or streams, or does nothing.
/// Then `TransformerWeights` is built with that backend instead of `CPUBackend.default`; the
/// encoder, decoder and search do not change. (Moving this protocol and the weight types into
/// a target below NeuralEngine is the Package.swift step that lets such a target depend on it
/// without depending on the whole engine.)
protocol ComputeBackend: Sendable {
    // MARK: Weights, prepared once at load

    /// The float32 matrix W [rows, depth] (row-major `values`) prepared for `multiply`.
    func floatMatrix(rowMajor values: consuming [Float], rows: Int, depth: Int) -> FloatMatrix

    /// The int8 matrix W [rows, depth] (row-major `values`, per-row `scales`) prepared for
    /// `multiply`.
    func int8Matrix(rowMajor values: consuming [Int8], scales: [Float], rows: Int, depth: Int) -> Int8Matrix

    // MARK: Matrix products, y = x·Wᵀ

    /// y[m, rows] = x[m, depth]·Wᵀ, split over `threads` threads.
    func multiply(_ w: FloatMatrix, _ x: UnsafePointer<Float>, m: Int, into y: UnsafeMutablePointer<Float>, threads: Int)

    /// y[m, rows] = x[m, depth]·Wᵀ (+ bias) the way CTranslate2 multiplies int8 weights: each
    /// row of x quantized to int8 with its own scale, an exact int32 product, then dequantized.
    func multiply(_ w: Int8Matrix, _ x: UnsafePointer<Float>, m: Int, bias: [Float]?,
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

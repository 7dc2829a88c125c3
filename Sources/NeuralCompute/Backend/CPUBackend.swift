import CBLAS
import Foundation

/// Which int8 GEMM multiplies a matrix: the AVX-512 VNNI kernel (`VNNIGemm`, exact sums) or
/// the AVX2 one (`AVX2Int8Gemm`, pair sums saturated at 16 bits). oneDNN/MKL make the same
/// choice for CTranslate2 on the same CPU, with the same arithmetic, so results follow
/// CTranslate2's on each kind of CPU.
enum Int8Kernel: Sendable {
    case vnni, avx2
}

/// Which float32 GEMM multiplies a matrix: `PackedSgemm` (AVX-512) or `PackedSgemmAVX2` over
/// weights packed at load, which give the same bits (one FMA chain per output), or OpenBLAS
/// over row-major weights (`SkinnyGemm` for few rows).
enum FloatKernel: Sendable {
    case avx512, avx2, openBLAS

    /// Whether weights are packed into 16-column panels (else row-major).
    var packs: Bool { self != .openBLAS }
}

/// The compute backend of x86-64 CPUs: NeuralKernelsAVX512 where the CPU has AVX-512 VNNI,
/// NeuralKernelsAVX2 otherwise, OpenBLAS when asked, and this folder's Swift kernels (layer norm,
/// softmax, activations, attention), all bit-identical to CTranslate2's CPU backend.
///
/// A small value: which kernels, picked once in `init` (the only place kernels are chosen).
/// The GEMMs are in `CPUBackend+Gemm.swift`.
public struct CPUBackend: ComputeBackend {
    public typealias FloatWeights = FloatMatrix
    public typealias Int8Weights = Int8Matrix

    /// The CPU it was made for.
    public let capabilities: CPUCapabilities
    /// The int8 GEMM of matrices this backend prepares.
    let int8Kernel: Int8Kernel
    /// The float32 GEMM of matrices this backend prepares.
    let floatKernel: FloatKernel

    /// Overrides of the automatic choice, to compare or test a path.
    public struct Preference: Sendable, Equatable {
        /// Run the AVX2 kernels (int8 and packed float) even on an AVX-512 VNNI CPU. Default false.
        public var avx2Only = false
        /// Leave float32 weights row-major for OpenBLAS. Default false (packed kernels).
        public var openBLAS = false

        /// Overrides as given.
        public init(avx2Only: Bool = false, openBLAS: Bool = false) {
            self.avx2Only = avx2Only
            self.openBLAS = openBLAS
        }

        /// GLOSSA_INT8_KERNEL=avx2 and GLOSSA_FLOAT_GEMM=openblas (the glossa command checks
        /// their values before the engine starts; anything else is the default).
        public static func environment(_ variables: [String: String]) -> Preference {
            Preference(avx2Only: variables["GLOSSA_INT8_KERNEL"] == "avx2",
                       openBLAS: variables["GLOSSA_FLOAT_GEMM"] == "openblas")
        }
    }

    /// Picks the kernels for `capabilities`: AVX-512 VNNI ones where the CPU has them and
    /// `preference` allows, else AVX2; OpenBLAS for float32 when preferred.
    public init(capabilities: CPUCapabilities, preference: Preference = Preference()) {
        self.capabilities = capabilities
        let avx512 = capabilities.avx512VNNI && !preference.avx2Only
        int8Kernel = avx512 ? .vnni : .avx2
        floatKernel = preference.openBLAS ? .openBLAS : avx512 ? .avx512 : .avx2
    }

    /// This CPU's backend with the environment's preference, decided once per process (the
    /// environment is read once, as the glossa command documents for these variables).
    public static let `default` = CPUBackend(capabilities: .current,
                                      preference: .environment(ProcessInfo.processInfo.environment))

    /// The kernels are compiled for AVX2 and FMA: refuse cleanly instead of faulting on older CPUs.
    public var unavailableReason: String? {
        capabilities.avx2FMA ? nil
            : "The neural engine needs a CPU with AVX2 and FMA (x86-64 from 2013 on); this CPU lacks them."
    }

    // `consume`: the array must arrive uniquely referenced, or packing in place would copy it.
    public func floatMatrix(rowMajor values: consuming [Float], rows: Int, depth: Int) -> FloatMatrix {
        FloatMatrix(rowMajor: consume values, rows: rows, depth: depth, kernel: floatKernel)
    }

    public func int8Matrix(rowMajor values: consuming [Int8], scales: [Float], rows: Int, depth: Int) -> Int8Matrix {
        Int8Matrix(rowMajor: consume values, scales: scales, rows: rows, depth: depth, kernel: int8Kernel)
    }

    public func layerNorm(_ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, rows: Int, depth: Int,
                   gamma: [Float], beta: [Float], epsilon: Float) {
        Kernels.layerNorm(x, y, rows: rows, depth: depth, gamma: gamma, beta: beta, epsilon: epsilon)
    }

    public func softmax(_ x: UnsafeMutablePointer<Float>, count: Int) { Kernels.softmax(x, count: count) }

    public func logSoftmax(_ x: UnsafeMutablePointer<Float>, count: Int) { Kernels.logSoftmax(x, count: count) }

    public func add(_ x: UnsafePointer<Float>, into y: UnsafeMutablePointer<Float>, count: Int) {
        Kernels.add(x, into: y, count: count)
    }

    public func activate(_ activation: Activation, _ x: UnsafeMutablePointer<Float>, count: Int) {
        activation.apply(x, count: count)
    }

    public func attentionScores(q: UnsafePointer<Float>, ldq: Int, m: Int, keys: UnsafePointer<Float>, ldk: Int, n: Int,
                         dh: Int, alpha: Float, order: AttentionKernels.Order, out: UnsafeMutablePointer<Float>,
                         ldo: Int, scratch: UnsafeMutablePointer<Float>) {
        AttentionKernels.scores(q: q, ldq: ldq, m: m, keys: keys, ldk: ldk, n: n, dh: dh, alpha: alpha,
                                order: order, out: out, ldo: ldo, scratch: scratch)
    }

    public func attentionWeightedSum(weights: UnsafePointer<Float>, ldw: Int, m: Int, values: UnsafePointer<Float>, ldv: Int,
                              n: Int, dh: Int, out: UnsafeMutablePointer<Float>, ldo: Int) {
        AttentionKernels.weightedSum(weights: weights, ldw: ldw, m: m, values: values, ldv: ldv, n: n, dh: dh,
                                     out: out, ldo: ldo)
    }

    /// OpenBLAS's thread count: the one call in the engine that sets it. Process-wide (an
    /// OpenBLAS global), so whichever caller sets it last decides.
    public func setLibraryThreads(_ count: Int) {
        openblas_set_num_threads(Int32(max(1, count)))
    }
}

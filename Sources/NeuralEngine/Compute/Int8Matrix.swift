import CCPUFeatures
import NeuralKernelsAVX2
import NeuralKernelsAVX512

/// Which int8 GEMM this process runs: the AVX-512 VNNI kernel when the CPU has it, else the
/// AVX2 one, as oneDNN/MKL choose for CTranslate2 on the same CPU (their AVX2 kernels saturate
/// 16-bit pair sums, and so does ours: results follow CTranslate2's on each kind of CPU).
/// Decided once; GLOSSA_INT8_KERNEL=avx2 forces the AVX2 kernels.
enum Int8Kernel: Sendable {
    case vnni, avx2

    static let current: Int8Kernel = glossa_cpu_has_avx512_vnni() != 0 ? .vnni : .avx2
}

/// An int8 weight matrix W [rows, depth] with per-row scales, packed once at load for the GEMM
/// that reads it.
///
/// Both kernels take activations as unsigned bytes x + 128 (u8 × s8, CTranslate2's u8s8 scheme),
/// and `compensation[j]` = −128·Σₚ W[j, p] turns the sum back into Σ x·W. `.vnni`: `VNNIGemm`,
/// exact. `.avx2`: `AVX2Int8Gemm`, which saturates pair sums at 16 bits exactly as the AVX2
/// u8s8 GEMMs CTranslate2 runs on such CPUs do.
struct Int8Matrix: Sendable {
    let rows: Int
    let depth: Int
    let kernel: Int8Kernel
    let values: [Int8]
    let scales: [Float]
    let compensation: [Int32]

    /// The packed layout `kernel` reads.
    var layout: QuadLayout { Self.layout(of: kernel) }

    static func layout(of kernel: Int8Kernel) -> QuadLayout {
        kernel == .vnni ? VNNIGemm.layout : AVX2Int8Gemm.layout
    }

    /// Takes row-major int8 `values` and packs them for `kernel` (in place when the packed form
    /// has the same size, so a model is never held twice).
    init(rowMajor values: consuming [Int8], scales: [Float], rows: Int, depth: Int, kernel: Int8Kernel = .current) {
        self.rows = rows
        self.depth = depth
        self.scales = scales
        self.kernel = kernel
        var v = consume values
        var compensation = [Int32](repeating: 0, count: rows)
        for j in 0..<rows {
            var sum: Int32 = 0
            for p in 0..<depth { sum &+= Int32(v[j * depth + p]) }
            compensation[j] = -128 &* sum
        }
        self.compensation = compensation
        // A block's packed form has its row-major size when k is whole quads: pack in place then.
        let layout = Self.layout(of: kernel)
        if depth % 4 == 0 {
            InPlacePacking.pack(&v, rows: rows, depth: depth, blockRows: layout.blockColumns, zero: 0) { block, out in
                layout.pack(block, n: layout.blockColumns, k: depth, into: out)
            }
            self.values = v
        } else {
            let count = layout.packedCount(n: rows, k: depth)
            self.values = v.withUnsafeBufferPointer { src in
                [Int8](unsafeUninitializedCapacity: count) { out, initialized in
                    layout.pack(src.baseAddress!, n: rows, k: depth, into: out.baseAddress!)
                    initialized = count
                }
            }
        }
    }

    /// Row j of W dequantized into `out` (`depth` floats, w·(1/scale) as CTranslate2's
    /// Dequantize): an embedding lookup in a tied table.
    func row(_ j: Int, into out: UnsafeMutablePointer<Float>) {
        let r = 1 / scales[j]
        let layout = self.layout
        values.withUnsafeBufferPointer { v in
            for p in 0..<depth { out[p] = Float(v[layout.offset(column: j, depth: p, k: depth)]) * r }
        }
    }

    /// acc[r, j] = Σₚ x[r, p]·W[j, p] for r < m (exact int32), `input` from `quantize`.
    func multiply(_ input: QuantizedInput, m: Int, into acc: UnsafeMutablePointer<Int32>, threads: Int) {
        values.withUnsafeBufferPointer { w in
            let wp = w.baseAddress!
            switch kernel {
            case .avx2:
                compensation.withUnsafeBufferPointer { comp in
                    // Split at multiples of 16 columns: whole 8-column blocks, 2 per tile.
                    Parallel.columns(rows, threads: threads, granularity: 16) { range in
                        AVX2Int8Gemm.multiply(m: m, n: rows, k: depth, a: input.unsigned, lda: input.stride, packed: wp,
                                              blocks: (range.lowerBound / layout.blockColumns)..<layout.blocks(range.upperBound),
                                              compensation: comp.baseAddress!, c: acc, ldc: rows)
                    }
                }
            case .vnni:
                compensation.withUnsafeBufferPointer { comp in
                    // Split at multiples of 64 columns: whole 16-column blocks, 4 per tile.
                    Parallel.columns(rows, threads: threads, granularity: 64) { range in
                        VNNIGemm.multiply(m: m, n: rows, k: depth, a: input.unsigned, lda: input.stride,
                                          packed: wp, blocks: (range.lowerBound / layout.blockColumns)..<layout.blocks(range.upperBound),
                                          compensation: comp.baseAddress!, c: acc, ldc: rows)
                    }
                }
            }
        }
    }

    /// Quantizes `m` rows of `x` [m, depth] per row (CTranslate2's dynamic int8 quantization) into
    /// workspace memory laid out for this matrix's kernel; writes each row's scale to `scales`.
    func quantize(_ x: UnsafePointer<Float>, m: Int, scales: UnsafeMutablePointer<Float>,
                  workspace: Workspace) -> QuantizedInput {
        let stride = layout.paddedDepth(depth)
        // Int8 and UInt8 views of one buffer may alias (same size, differ only in sign).
        let q = UnsafeMutableRawPointer(workspace.int8Buffer(m * stride)).assumingMemoryBound(to: UInt8.self)
        for r in 0..<m {
            scales[r] = WeightConversion.quantizeActivationRowUnsigned(x + r * depth, q + r * stride, depth: depth)
            // Pad bytes meet B's zero padding; keep them defined anyway.
            for p in depth..<stride { q[r * stride + p] = 128 }
        }
        return QuantizedInput(pointer: UnsafeRawPointer(q), stride: stride)
    }
}

/// Quantized activation rows in workspace memory (valid until the workspace's next int8 use):
/// unsigned bytes x + 128.
struct QuantizedInput {
    let pointer: UnsafeRawPointer
    /// Bytes between rows (the kernel's padded depth).
    let stride: Int
    var unsigned: UnsafePointer<UInt8> { pointer.assumingMemoryBound(to: UInt8.self) }
}

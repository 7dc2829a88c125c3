import CCPUFeatures
import NeuralKernelsAVX512

/// Which int8 GEMM this process runs: the AVX-512 VNNI kernel when the CPU has it, else the
/// portable AVX2 one. Decided once; both give the same int32 sums (integer arithmetic is exact),
/// so the choice changes speed, never results.
enum Int8Kernel: Sendable {
    case vnni, avx2

    static let current: Int8Kernel = glossa_cpu_has_avx512_vnni() != 0 ? .vnni : .avx2
}

/// An int8 weight matrix W [rows, depth] with per-row scales, stored for the GEMM that reads it.
///
/// For `.vnni` the values are in `VNNIGemm`'s packed layout and `compensation[j]` is
/// −128·Σₚ W[j, p]: activations are fed as unsigned bytes x + 128 (`vpdpbusd` multiplies u8 by
/// s8), and adding the compensation gives back Σ x·W exactly, the way CTranslate2's u8s8 path
/// does. For `.avx2` the values are row-major and there is no compensation.
struct Int8Matrix: Sendable {
    let rows: Int
    let depth: Int
    let kernel: Int8Kernel
    let values: [Int8]
    let scales: [Float]
    let compensation: [Int32]

    /// Takes row-major int8 `values` and packs them for the current CPU's kernel.
    init(rowMajor values: [Int8], scales: [Float], rows: Int, depth: Int, kernel: Int8Kernel = .current) {
        self.rows = rows
        self.depth = depth
        self.scales = scales
        self.kernel = kernel
        switch kernel {
        case .avx2:
            self.values = values
            self.compensation = []
        case .vnni:
            self.values = values.withUnsafeBufferPointer { src in
                [Int8](unsafeUninitializedCapacity: VNNIGemm.packedCount(n: rows, k: depth)) { out, count in
                    VNNIGemm.pack(src.baseAddress!, n: rows, k: depth, into: out.baseAddress!)
                    count = out.count
                }
            }
            var compensation = [Int32](repeating: 0, count: rows)
            for j in 0..<rows {
                var sum: Int32 = 0
                for p in 0..<depth { sum &+= Int32(values[j * depth + p]) }
                compensation[j] = -128 &* sum
            }
            self.compensation = compensation
        }
    }

    /// acc[r, j] = Σₚ x[r, p]·W[j, p] for r < m (exact int32), with `x` quantized by
    /// `quantize(x:…)` into `input` for this matrix's kernel.
    func multiply(_ input: QuantizedInput, m: Int, into acc: UnsafeMutablePointer<Int32>, threads: Int) {
        values.withUnsafeBufferPointer { w in
            let wp = w.baseAddress!
            switch kernel {
            case .avx2:
                Parallel.columns(rows, threads: threads) { range in
                    Int8Gemm.multiply(m: m, n: rows, k: depth, a: input.signed, b: wp, c: acc, columns: range)
                }
            case .vnni:
                compensation.withUnsafeBufferPointer { comp in
                    // Split at multiples of 64 columns: whole 16-column blocks, 4 per tile.
                    Parallel.columns(rows, threads: threads, granularity: 64) { range in
                        let blocks = (range.lowerBound / 16)..<VNNIGemm.blocks(range.upperBound)
                        VNNIGemm.multiply(m: m, n: rows, k: depth, a: input.unsigned, lda: input.stride,
                                          packed: wp, blocks: blocks, compensation: comp.baseAddress!,
                                          c: acc, ldc: rows)
                    }
                }
            }
        }
    }

    /// Quantizes `m` rows of `x` [m, depth] per row (CTranslate2's dynamic int8 quantization) into
    /// workspace memory laid out for this matrix's kernel; writes each row's scale to `scales`.
    func quantize(_ x: UnsafePointer<Float>, m: Int, scales: UnsafeMutablePointer<Float>,
                  workspace: Workspace) -> QuantizedInput {
        let stride = kernel == .vnni ? VNNIGemm.paddedDepth(depth) : depth
        let q = workspace.int8Buffer(m * stride)
        // Both forms hold round(x·scale + 128) as CTranslate2's u8s8 path computes it; the
        // signed form stores it minus 128. Int8 and UInt8 views of one buffer may alias.
        let unsigned = UnsafeMutableRawPointer(q).assumingMemoryBound(to: UInt8.self)
        for r in 0..<m {
            if kernel == .vnni {
                scales[r] = WeightConversion.quantizeActivationRowUnsigned(x + r * depth, unsigned + r * stride, depth: depth)
            } else {
                scales[r] = WeightConversion.quantizeActivationRow(x + r * depth, q + r * stride, depth: depth)
            }
        }
        return QuantizedInput(signed: q, stride: stride)
    }
}

/// Quantized activation rows in workspace memory (valid until the workspace's next int8 use).
struct QuantizedInput {
    let signed: UnsafeMutablePointer<Int8>
    /// Elements between rows (the depth, or the VNNI kernel's padded depth).
    let stride: Int
    var unsigned: UnsafePointer<UInt8> { UnsafeRawPointer(signed).assumingMemoryBound(to: UInt8.self) }
}

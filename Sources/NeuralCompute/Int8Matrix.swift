import NeuralKernelsAVX2
import NeuralKernelsAVX512

/// An int8 weight matrix W [rows, depth] with per-row scales, packed once at load for the GEMM
/// that reads it (`CPUBackend.int8Matrix` makes it; `CPUBackend.int8Gemm` multiplies).
///
/// Both kernels take activations as unsigned bytes x + 128 (u8 × s8, CTranslate2's u8s8 scheme),
/// and `compensation[j]` = −128·Σₚ W[j, p] turns the sum back into Σ x·W. `.vnni`: `VNNIGemm`,
/// exact. `.avx2`: `AVX2Int8Gemm`, which saturates pair sums at 16 bits exactly as the AVX2
/// u8s8 GEMMs CTranslate2 runs on such CPUs do.
public struct Int8Matrix: WeightMatrix {
    public let rows: Int
    public let depth: Int
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
    init(rowMajor values: consuming [Int8], scales: [Float], rows: Int, depth: Int, kernel: Int8Kernel) {
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
    public func row(_ j: Int, into out: UnsafeMutablePointer<Float>) {
        let r = 1 / scales[j]
        let layout = self.layout
        values.withUnsafeBufferPointer { v in
            for p in 0..<depth { out[p] = Float(v[layout.offset(column: j, depth: p, k: depth)]) * r }
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
            scales[r] = ActivationQuantization.rowUnsigned(x + r * depth, q + r * stride, depth: depth)
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

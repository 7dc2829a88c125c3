import NeuralKernelsAVX2

/// A float32 weight matrix W [rows, depth] for y = x·Wᵀ, prepared once at load for the kernel
/// that multiplies it (`CPUBackend.floatMatrix` makes it, `CPUBackend.multiply` multiplies):
/// packed into 16-column panels for `PackedSgemm` (AVX-512) or `PackedSgemmAVX2`, which give the
/// same bits (one FMA chain per output), or left row-major for OpenBLAS (`SkinnyGemm` for few
/// rows), the path of `GLOSSA_FLOAT_GEMM=openblas`.
public struct FloatMatrix: WeightMatrix {
    public let rows: Int
    public let depth: Int
    /// The kernel whose layout `values` has.
    let kernel: FloatKernel
    let values: [Float]

    /// Whether `values` are packed into panels (else row-major).
    var packed: Bool { kernel.packs }

    /// Takes the row-major `values` (packed in place, so a model is never held twice).
    init(rowMajor values: consuming [Float], rows: Int, depth: Int, kernel: FloatKernel) {
        self.rows = rows
        self.depth = depth
        self.kernel = kernel
        var v = consume values
        // Both packed kernels read PackedSgemmAVX2's panel layout.
        if kernel.packs {
            InPlacePacking.pack(&v, rows: rows, depth: depth, blockRows: 16, zero: 0) { block, out in
                PackedSgemmAVX2.pack(block, n: 16, k: depth, into: out)
            }
        }
        self.values = v
    }

    /// Row j of W into `out` (`depth` floats): an embedding lookup in a tied table.
    public func row(_ j: Int, into out: UnsafeMutablePointer<Float>) {
        values.withUnsafeBufferPointer { v in
            if packed {
                let base = v.baseAddress! + (j / 16) * depth * 16 + j % 16
                for p in 0..<depth { out[p] = base[p * 16] }
            } else {
                out.update(from: v.baseAddress! + j * depth, count: depth)
            }
        }
    }
}

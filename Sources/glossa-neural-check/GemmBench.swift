import Foundation
import NeuralKernelsAVX2
import NeuralKernelsAVX512

/// `--gemm M N K REPEATS`: one thread of the packed float32 kernel (`PackedSgemm`, AVX-512) on
/// C[M, N] = A[M, K]·W[N, K]ᵀ with random values, the shape of one decoder or output-projection
/// matrix product; prints the best time and GFLOP/s as JSON (to profile the kernel alone).
func runGemmBench(_ a: [String]) {
    guard a.count == 4, let m = Int(a[0]), let n = Int(a[1]), let k = Int(a[2]), let repeats = Int(a[3]),
          m > 0, n > 0, k > 0, n % 16 == 0 else {
        fail("--gemm takes M N K REPEATS (N a multiple of 16)\n" + Usage.text)
    }
    var rng = SystemRandomNumberGenerator()
    let w = (0..<(n * k)).map { _ in Float.random(in: -1...1, using: &rng) }
    let x = (0..<(m * k)).map { _ in Float.random(in: -1...1, using: &rng) }
    var packed = [Float](repeating: 0, count: n * k)
    w.withUnsafeBufferPointer { wb in
        packed.withUnsafeMutableBufferPointer { pb in
            for block in 0..<(n / 16) {
                PackedSgemmAVX2.pack(wb.baseAddress! + block * 16 * k, n: 16, k: k,
                                     into: pb.baseAddress! + block * 16 * k)
            }
        }
    }
    var c = [Float](repeating: 0, count: m * n)
    var best = Double.infinity
    for _ in 0...repeats {
        let start = DispatchTime.now().uptimeNanoseconds
        x.withUnsafeBufferPointer { xb in
            packed.withUnsafeBufferPointer { pb in
                c.withUnsafeMutableBufferPointer { cb in
                    PackedSgemm.multiply(m: m, n: n, k: k, a: xb.baseAddress!, lda: k, packed: pb.baseAddress!,
                                         blocks: 0..<(n / 16), c: cb.baseAddress!, ldc: n)
                }
            }
        }
        best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    var checksum = 0.0
    for v in c { checksum += Double(v) }
    let gflops = 2.0 * Double(m) * Double(n) * Double(k) / best / 1e9
    print(#"{"seconds": \#(best), "gflops": \#(gflops), "checksum": \#(checksum)}"#)
}

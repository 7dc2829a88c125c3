import Testing
@testable import NeuralCompute
@testable import NeuralEngine

/// Both packed float kernels against one fused multiply-add chain per output (their documented
/// order), bit for bit, on shapes that are and are not multiples of their tiles; and the
/// OpenBLAS path against the same values within float tolerance.
@Suite struct FloatMatrixTests {
    func values(_ count: Int, seed: UInt64) -> [Float] {
        var random = TestRandom(state: seed)
        return random.floats(count, range: 10000, divisor: 1000)
    }

    func check(m: Int, n: Int, k: Int, kernel: FloatKernel, threads: Int = 1) {
        let w = values(n * k, seed: UInt64(n * 31 + k)), x = values(m * k, seed: UInt64(m * 7 + k))
        let backend = CPUBackend.forcing(kernel)
        let matrix = backend.floatMatrix(rowMajor: w, rows: n, depth: k)
        #expect(matrix.kernel == kernel)
        let pack = kernel.packs
        var y = [Float](repeating: .nan, count: m * n)
        x.withUnsafeBufferPointer { xp in
            y.withUnsafeMutableBufferPointer { backend.multiply(matrix, xp.baseAddress!, m: m, into: $0.baseAddress!, threads: threads) }
        }
        for i in 0..<m {
            for j in 0..<n {
                var want: Float = 0
                for p in 0..<k { want = want.addingProduct(x[i * k + p], w[j * k + p]) }
                if pack {
                    #expect(y[i * n + j].bitPattern == want.bitPattern, "\(kernel) m \(m) n \(n) k \(k) (\(i), \(j))")
                } else {
                    #expect(abs(y[i * n + j] - want) <= 1e-3 * max(1, abs(want)), "openblas m \(m) n \(n) k \(k)")
                }
            }
        }
        // The last row read back equals the weight row (the lookup tied embeddings use).
        var row = [Float](repeating: .nan, count: k)
        row.withUnsafeMutableBufferPointer { matrix.row(n - 1, into: $0.baseAddress!) }
        #expect(row == Array(w[((n - 1) * k)..<(n * k)]))
    }

    static let shapes: [(Int, Int, Int)] = [(1, 1, 1), (1, 16, 8), (4, 37, 13), (6, 64, 64), (7, 130, 33), (13, 200, 5), (32, 70, 40),
                                               // 8+ rows: PackedSgemmTall, whose depth slices (128) continue the chains.
                                               (8, 48, 128), (9, 33, 129), (20, 130, 300), (16, 96, 256)]

    @Test func avx2KernelIsOneChainPerOutput() {
        for (m, n, k) in Self.shapes { check(m: m, n: n, k: k, kernel: .avx2) }
        check(m: 5, n: 300, k: 20, kernel: .avx2, threads: 2)
    }

    @Test(.enabled(if: CPUCapabilities.current.avx512VNNI, "this CPU has no AVX-512 VNNI"))
    func avx512KernelIsOneChainPerOutput() {
        for (m, n, k) in Self.shapes { check(m: m, n: n, k: k, kernel: .avx512) }
        check(m: 5, n: 300, k: 20, kernel: .avx512, threads: 2)
        check(m: 12, n: 300, k: 150, kernel: .avx512, threads: 2)
    }

    @Test func openBLASPathAgrees() {
        for (m, n, k) in Self.shapes { check(m: m, n: n, k: k, kernel: .openBLAS) }
    }
}

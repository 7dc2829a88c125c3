import Testing
@testable import NeuralCompute
@testable import NeuralEngine

/// The int8 GEMMs against a plain triple loop, for sizes that are and are not multiples of their
/// tiles (4 rows, 8/16-column blocks, quads of k): the VNNI kernel's sums are exact; the AVX2
/// kernel saturates each aligned pair's u8·s8 sum at 16 bits, as the AVX2 GEMMs CTranslate2 runs.
@Suite struct Int8KernelTests {
    func check(kernel: Int8Kernel, m: Int, n: Int, k: Int, threads: Int = 1) {
        var rng = TestRandom(state: UInt64(m * 1_000_003 + n * 1009 + k))
        var w = [Int8](repeating: 0, count: n * k)
        for i in w.indices { w[i] = Int8(truncatingIfNeeded: Int((rng.next() >> 33) % 255) - 127) }
        // Extreme rows: all +127 and all −127, to exercise the largest sums.
        if n > 1 { for p in 0..<k { w[p] = 127; w[k + p] = -127 } }
        var x = [Float](repeating: 0, count: m * k)
        for i in x.indices { x[i] = Float(Int((rng.next() >> 33) % 2001) - 1000) / 250 }
        let backend = CPUBackend.forcing(kernel)
        let matrix = backend.int8Matrix(rowMajor: w, scales: [Float](repeating: 1, count: n), rows: n, depth: k)
        #expect(matrix.kernel == kernel)
        let workspace = Workspace()
        var scales = [Float](repeating: 0, count: m)
        var acc = [Int32](repeating: -1, count: m * n)
        x.withUnsafeBufferPointer { xp in
            scales.withUnsafeMutableBufferPointer { sp in
                let input = matrix.quantize(xp.baseAddress!, m: m, scales: sp.baseAddress!, workspace: workspace)
                // The reference reads the same quantized bytes (x + 128).
                var expected = [Int32](repeating: 0, count: m * n)
                for r in 0..<m {
                    for j in 0..<n {
                        var sum: Int32 = 0
                        var p = 0
                        while p < k {
                            // One aligned pair: u·w products, the AVX2 kernel clamps their sum.
                            var pair: Int32 = 0
                            for t in p..<min(p + 2, k) {
                                pair += Int32(input.unsigned[r * input.stride + t]) * Int32(w[j * k + t])
                            }
                            sum += kernel == .avx2 ? min(32767, max(-32768, pair)) : pair
                            p += 2
                        }
                        var weights: Int32 = 0
                        for t in 0..<k { weights += Int32(w[j * k + t]) }
                        expected[r * n + j] = sum - 128 * weights
                    }
                }
                acc.withUnsafeMutableBufferPointer { ap in
                    backend.int8Gemm(matrix, input, m: m, into: ap.baseAddress!, threads: threads)
                }
                #expect(acc == expected, "kernel \(kernel) m \(m) n \(n) k \(k)")
            }
        }
    }

    static let shapes: [(Int, Int, Int)] = [(1, 1, 1), (1, 16, 4), (3, 37, 13), (4, 64, 512), (5, 130, 33),
                                            (9, 200, 68), (32, 512, 64), (2, 1000, 7)]

    @Test func avx2KernelIsExact() {
        for (m, n, k) in Self.shapes { check(kernel: .avx2, m: m, n: n, k: k) }
        check(kernel: .avx2, m: 6, n: 300, k: 40, threads: 2)
    }

    @Test(.enabled(if: CPUCapabilities.current.avx512VNNI, "this CPU has no AVX-512 VNNI"))
    func vnniKernelIsExact() {
        for (m, n, k) in Self.shapes { check(kernel: .vnni, m: m, n: n, k: k) }
        check(kernel: .vnni, m: 6, n: 300, k: 40, threads: 2)
    }

    @Test func activationQuantizationMatchesCTranslate2Rounding() {
        // round(x·scale + 128) with ties to even; amax maps to ±127.
        let x: [Float] = [-2, -1, -0.5, 0, 0.5 / 127 * 2, 1.5 / 127 * 2, 2]
        var y = [UInt8](repeating: 0, count: x.count)
        let scale = x.withUnsafeBufferPointer { xp in
            y.withUnsafeMutableBufferPointer { ActivationQuantization.rowUnsigned(xp.baseAddress!, $0.baseAddress!, depth: x.count) }
        }
        #expect(scale == 63.5)
        #expect(y.first == 1 && y.last == 255)
        #expect(Array(y[1...3]) == [64, 96, 128])  // −63.5 + 128 = 64.5 → 64 (even); −31.75 + 128 → 96
    }
}

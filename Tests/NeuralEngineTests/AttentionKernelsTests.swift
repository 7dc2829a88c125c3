import Testing
@testable import NeuralCompute
@testable import NeuralEngine

/// The attention kernels against scalar code written straight from the summation orders they
/// document (oneDNN's, checked against `dnnl_sgemm` when they were written). Bit equality.
@Suite struct AttentionKernelsTests {
    func values(_ count: Int, seed: UInt64) -> [Float] {
        var random = TestRandom(state: seed)
        return random.floats(count, range: 10000, divisor: 3333)
    }

    /// Σ in `lanes` chains (p mod lanes), each a fused multiply-add chain from 0.
    func chains(_ a: ArraySlice<Float>, _ b: ArraySlice<Float>, lanes: Int) -> [Float] {
        var s = [Float](repeating: 0, count: lanes)
        for (p, (x, y)) in zip(a, b).enumerated() { s[p % lanes] = s[p % lanes].addingProduct(x, y) }
        return s
    }

    func expected(_ q: ArraySlice<Float>, _ k: ArraySlice<Float>, order: AttentionKernels.Order, alpha: Float) -> Float {
        switch order {
        case .chain:
            return chains(q, k, lanes: 1)[0] * alpha
        case .lanes8:
            let s = chains(q, k, lanes: 8)
            return (((s[0] + s[1]) + (s[4] + s[5])) + ((s[2] + s[3]) + (s[6] + s[7]))) * alpha
        case .lanes16:
            var s = chains(q, k, lanes: 16)
            while s.count > 1 {
                let half = s.count / 2
                s = (0..<half).map { s[$0] + s[$0 + half] }
            }
            return s[0] * alpha
        }
    }

    @Test(arguments: [(16, AttentionKernels.Order.chain), (16, .lanes16), (16, .lanes8),
                      (64, .chain), (64, .lanes16), (64, .lanes8), (20, .lanes16), (12, .lanes8)])
    func scoresFollowTheirOrder(dh: Int, order: AttentionKernels.Order) {
        let m = 3, n = 11, ld = dh + 5
        let q = values(m * ld, seed: 1), k = values(n * ld, seed: 2)
        var out = [Float](repeating: .nan, count: m * n)
        var scratch = [Float](repeating: 0, count: dh * 16)
        q.withUnsafeBufferPointer { qp in
            k.withUnsafeBufferPointer { kp in
                AttentionKernels.scores(q: qp.baseAddress!, ldq: ld, m: m, keys: kp.baseAddress!, ldk: ld, n: n, dh: dh,
                                        alpha: 0.3, order: order, out: &out, ldo: n, scratch: &scratch)
            }
        }
        for i in 0..<m {
            for t in 0..<n {
                let want = expected(q[(i * ld)..<(i * ld + dh)], k[(t * ld)..<(t * ld + dh)], order: order, alpha: 0.3)
                #expect(out[i * n + t].bitPattern == want.bitPattern, "order \(order) dh \(dh) (\(i), \(t))")
            }
        }
    }

    @Test(arguments: [16, 64, 20])
    func weightedSumIsOneChainPerOutput(dh: Int) {
        let m = 2, n = 13, ldv = dh + 3
        let w = values(m * n, seed: 3), v = values(n * ldv, seed: 4)
        var out = [Float](repeating: .nan, count: m * dh)
        w.withUnsafeBufferPointer { wp in
            v.withUnsafeBufferPointer { vp in
                AttentionKernels.weightedSum(weights: wp.baseAddress!, ldw: n, m: m, values: vp.baseAddress!, ldv: ldv,
                                             n: n, dh: dh, out: &out, ldo: dh)
            }
        }
        for i in 0..<m {
            for j in 0..<dh {
                var want: Float = 0
                for t in 0..<n { want = want.addingProduct(w[i * n + t], v[t * ldv + j]) }
                #expect(out[i * dh + j].bitPattern == want.bitPattern, "dh \(dh) (\(i), \(j))")
            }
        }
    }
}

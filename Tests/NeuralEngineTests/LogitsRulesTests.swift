import Testing
@testable import NeuralEngine

/// argmax/topK (vectorised with integer order keys and block skipping) against plain scans.
@Suite struct LogitsRulesTests {
    func plainArgmax(_ x: [Float]) -> Int {
        var best = 0
        for i in 1..<x.count where x[i] > x[best] { best = i }
        return best
    }

    func plainTopK(_ x: [Float], k: Int) -> [Int] {
        // Stable: larger value first, earlier index first on ties.
        Array(x.indices.sorted { x[$0] > x[$1] || (x[$0] == x[$1] && $0 < $1) }.prefix(k))
    }

    func rows() -> [[Float]] {
        var random = TestRandom(state: 42)
        // Quarter steps in [−5, 5]: many ties.
        var rows: [[Float]] = (0..<20).map { n in random.floats(37 + n * 13, range: 20, divisor: 4) }
        rows.append([-0.0, 0.0, -1, -0.0])
        rows.append([-5, -3, -3, -7, -3])
        rows.append([Float](repeating: -Float.greatestFiniteMagnitude, count: 40) + [-1e30])
        return rows
    }

    @Test func argmaxIsTheFirstMaximum() {
        for row in rows() {
            let got = row.withUnsafeBufferPointer { LogitsRules.argmax($0.baseAddress!, count: row.count) }
            #expect(got == plainArgmax(row), "\(row)")
        }
    }

    @Test func topKMatchesASortedScan() {
        for row in rows() {
            for k in [1, 2, 8] where k <= row.count {
                let got = row.withUnsafeBufferPointer { LogitsRules.topK($0.baseAddress!, count: row.count, k: k) }
                #expect(got.map(\.index) == plainTopK(row, k: k), "k \(k) \(row)")
            }
        }
    }

    @Test func orderKeysOrderLikeFloats() {
        let values: [Float] = [-.greatestFiniteMagnitude, -1e10, -1, -1e-30, -0.0, 0, 1e-30, 1, 1e10, .greatestFiniteMagnitude]
        for (a, b) in zip(values, values.dropFirst()) {
            #expect(LogitsRules.orderKey(a) < LogitsRules.orderKey(b))
            #expect(LogitsRules.valueOfKey(LogitsRules.orderKey(a)).bitPattern == a.bitPattern)
        }
    }
}

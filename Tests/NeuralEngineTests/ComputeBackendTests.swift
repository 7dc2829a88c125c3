import Foundation
import Testing
@testable import NeuralCompute
@testable import NeuralEngine

extension CPUBackend {
    /// A backend whose float32 GEMM is `kernel` (the AVX-512 one as if the CPU had VNNI: call
    /// its products only where it does).
    static func forcing(_ kernel: FloatKernel) -> CPUBackend {
        CPUBackend(capabilities: CPUCapabilities(avx2FMA: true, avx512VNNI: kernel == .avx512),
                   preference: CPUBackend.Preference(openBLAS: kernel == .openBLAS))
    }

    /// A backend whose int8 GEMM is `kernel` (as `forcing(_: FloatKernel)`).
    static func forcing(_ kernel: Int8Kernel) -> CPUBackend {
        CPUBackend(capabilities: CPUCapabilities(avx2FMA: true, avx512VNNI: kernel == .vnni))
    }
}

/// The CPU backend picks its kernels from `CPUCapabilities` and the preference alone, and a model
/// run on the AVX2 kernels gives the tokens and scores of the same model on this CPU's choice.
@Suite struct ComputeBackendTests {
    static let vnniCPU = CPUCapabilities(avx2FMA: true, avx512VNNI: true)
    static let avx2CPU = CPUCapabilities(avx2FMA: true, avx512VNNI: false)

    @Test func kernelsFollowTheCapabilities() {
        let vnni = CPUBackend(capabilities: Self.vnniCPU)
        #expect(vnni.int8Kernel == .vnni && vnni.floatKernel == .avx512)
        let avx2 = CPUBackend(capabilities: Self.avx2CPU)
        #expect(avx2.int8Kernel == .avx2 && avx2.floatKernel == .avx2)
        #expect(CPUBackend.default.capabilities == CPUCapabilities.current)
    }

    @Test func preferencesForceTheOtherPaths() {
        let forced = CPUBackend(capabilities: Self.vnniCPU, preference: .init(avx2Only: true))
        #expect(forced.int8Kernel == .avx2 && forced.floatKernel == .avx2)
        let blas = CPUBackend(capabilities: Self.vnniCPU, preference: .init(openBLAS: true))
        #expect(blas.int8Kernel == .vnni && blas.floatKernel == .openBLAS)
        let both = CPUBackend(capabilities: Self.avx2CPU, preference: .init(avx2Only: true, openBLAS: true))
        #expect(both.int8Kernel == .avx2 && both.floatKernel == .openBLAS)
        // The environment variables the glossa command documents, and nothing else.
        #expect(CPUBackend.Preference.environment(["GLOSSA_INT8_KERNEL": "avx2", "GLOSSA_FLOAT_GEMM": "openblas"])
                == .init(avx2Only: true, openBLAS: true))
        #expect(CPUBackend.Preference.environment(["GLOSSA_INT8_KERNEL": "auto", "GLOSSA_FLOAT_GEMM": "packed"]) == .init())
        #expect(CPUBackend.Preference.environment([:]) == .init())
    }

    @Test func matricesArePackedForTheChosenKernel() {
        let backend = CPUBackend(capabilities: Self.avx2CPU)
        #expect(backend.floatMatrix(rowMajor: [Float](repeating: 1, count: 32), rows: 4, depth: 8).kernel == .avx2)
        #expect(backend.int8Matrix(rowMajor: [Int8](repeating: 1, count: 32), scales: [1, 1, 1, 1], rows: 4, depth: 8).kernel == .avx2)
        let blas = CPUBackend(capabilities: Self.avx2CPU, preference: .init(openBLAS: true))
        #expect(!blas.floatMatrix(rowMajor: [Float](repeating: 1, count: 32), rows: 4, depth: 8).packed)
    }

    /// A model decoded on this CPU's backend and on the AVX2 kernels gives the same tokens and
    /// score bits (on an AVX2-only CPU both are the AVX2 path; with VNNI this compares the two).
    @Test(arguments: [false, true]) func theAVX2PathGivesTheSameTokens(quantized: Bool) throws {
        let dir = try writeModelDirectory(randomModel(quantized: quantized), vocabulary: randomVocabulary)
        let chosen = try Translator(modelDirectory: dir, backend: CPUBackend.default)
        let avx2 = try Translator(modelDirectory: dir, backend: CPUBackend.forcing(Int8Kernel.avx2))
        let avx2Backend = try #require((avx2.weights as? TransformerWeights<CPUBackend>)?.backend)
        #expect(avx2Backend.floatKernel == .avx2 && avx2Backend.int8Kernel == .avx2)
        #expect(chosen.isQuantized == quantized)
        var random = TestRandom(state: 99)
        let batch = (0..<6).map { b in (0..<(3 + b * 3)).map { _ in randomVocabulary[3 + Int((random.next() >> 33) % 61)] } }
        for beam in [1, 4] {
            let options = DecodingOptions(beamSize: beam, lengthPenalty: 1, maxDecodingLength: 16,
                                          noRepeatNgramSize: 0, returnScores: true)
            let want = try chosen.translate(batch, options: options, threads: 1)
            let got = try avx2.translate(batch, options: options, threads: 2)
            #expect(got.map(\.tokens) == want.map(\.tokens), "beam \(beam)")
            #expect(got.map(\.score.bitPattern) == want.map(\.score.bitPattern), "beam \(beam)")
            #expect(want.contains { !$0.tokens.isEmpty })
        }
    }
}

let randomVocabulary = ["<unk>", "<s>", "</s>"] + (3..<64).map { "w\($0)" }

/// A random pre-norm Transformer (D=64, 4 heads, FFN 128, 2+2 layers, 64 tokens): wide enough
/// for every kernel to run whole tiles and tails. Quantized, its int8 weights stay within ±63,
/// so an aligned pair of u8·s8 products never exceeds 255·63·2 = 32130: the AVX2 kernel's
/// 16-bit saturation never applies, and it must then agree with the exact VNNI kernel bit for bit.
func randomModel(quantized: Bool) -> ModelBinWriter {
    var w = ModelBinWriter()
    var random = TestRandom(state: 2024)
    let d: UInt32 = 64, f: UInt32 = 128, v = UInt32(randomVocabulary.count)
    func floats(_ n: UInt32, scale: Float = 0.2) -> [Float] { random.floats(Int(n), range: 1000, divisor: 1000 / scale) }
    func weight(_ name: String, _ rows: UInt32, _ columns: UInt32) {
        if quantized {
            let q = (0..<(rows * columns)).map { _ in Int8(Int((random.next() >> 33) % 127) - 63) }
            w.variables.append((name, [rows, columns], 1, q.map { UInt8(bitPattern: $0) }))
            w.floats(name + "_scale", [rows], (0..<rows).map { _ in 300 + Float((random.next() >> 33) % 100) })
        } else {
            w.floats(name, [rows, columns], floats(rows * columns))
        }
    }
    func linear(_ scope: String, _ rows: UInt32, _ columns: UInt32) {
        weight(scope + "/weight", rows, columns)
        w.floats(scope + "/bias", [rows], floats(rows, scale: 0.05))
    }
    func norm(_ scope: String) {
        w.floats(scope + "/gamma", [d], floats(d, scale: 0.1).map { 1 + $0 })
        w.floats(scope + "/beta", [d], floats(d, scale: 0.1))
    }
    for side in ["encoder", "decoder"] {
        w.int16("\(side)/num_heads", 4)
        w.int8("\(side)/pre_norm", 1)
        w.int8("\(side)/activation", 0)
        norm("\(side)/layer_norm")
        for layer in 0..<2 {
            let p = "\(side)/layer_\(layer)"
            norm(p + "/self_attention/layer_norm")
            linear(p + "/self_attention/linear_0", 3 * d, d)
            linear(p + "/self_attention/linear_1", d, d)
            if side == "decoder" {
                norm(p + "/attention/layer_norm")
                linear(p + "/attention/linear_0", d, d)
                linear(p + "/attention/linear_1", 2 * d, d)
                linear(p + "/attention/linear_2", d, d)
            }
            norm(p + "/ffn/layer_norm")
            linear(p + "/ffn/linear_0", f, d)
            linear(p + "/ffn/linear_1", d, f)
        }
    }
    weight("decoder/embeddings/weight", v, d)
    w.floats("decoder/projection/bias", [v], floats(v, scale: 0.05))
    w.aliases = [("decoder/projection/weight", "decoder/embeddings/weight"),
                 ("encoder/embeddings_0/weight", "decoder/embeddings/weight")]
    return w
}

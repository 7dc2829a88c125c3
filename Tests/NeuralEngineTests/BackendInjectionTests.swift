import Foundation
import NeuralCompute
import Synchronization
import Testing
import TranslationCore
@testable import NeuralEngine

/// A backend of its own weight types, as a GPU backend would have: it wraps the CPU backend's
/// matrices and kernels, and counts the products it runs. Nothing in NeuralEngine knows it.
struct RecordingBackend: ComputeBackend {
    struct Weights<Inner: WeightMatrix>: WeightMatrix {
        let inner: Inner
        var rows: Int { inner.rows }
        var depth: Int { inner.depth }
        func row(_ j: Int, into out: UnsafeMutablePointer<Float>) { inner.row(j, into: out) }
    }

    /// Products run so far (a class: the backend is a value copied into every model).
    final class Count: Sendable { let value = Mutex(0) }

    let cpu = CPUBackend.default
    let products = Count()
    let refusal: String?

    init(refusal: String? = nil) { self.refusal = refusal }

    var unavailableReason: String? { refusal }

    func floatMatrix(rowMajor values: consuming [Float], rows: Int, depth: Int) -> Weights<FloatMatrix> {
        Weights(inner: cpu.floatMatrix(rowMajor: values, rows: rows, depth: depth))
    }
    func int8Matrix(rowMajor values: consuming [Int8], scales: [Float], rows: Int, depth: Int) -> Weights<Int8Matrix> {
        Weights(inner: cpu.int8Matrix(rowMajor: values, scales: scales, rows: rows, depth: depth))
    }
    func multiply(_ w: Weights<FloatMatrix>, _ x: UnsafePointer<Float>, m: Int, into y: UnsafeMutablePointer<Float>, threads: Int) {
        products.value.withLock { $0 += 1 }
        cpu.multiply(w.inner, x, m: m, into: y, threads: threads)
    }
    func multiply(_ w: Weights<Int8Matrix>, _ x: UnsafePointer<Float>, m: Int, bias: [Float]?,
                  into y: UnsafeMutablePointer<Float>, workspace: Workspace) {
        products.value.withLock { $0 += 1 }
        cpu.multiply(w.inner, x, m: m, bias: bias, into: y, workspace: workspace)
    }
    func layerNorm(_ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, rows: Int, depth: Int,
                   gamma: [Float], beta: [Float], epsilon: Float) {
        cpu.layerNorm(x, y, rows: rows, depth: depth, gamma: gamma, beta: beta, epsilon: epsilon)
    }
    func softmax(_ x: UnsafeMutablePointer<Float>, count: Int) { cpu.softmax(x, count: count) }
    func logSoftmax(_ x: UnsafeMutablePointer<Float>, count: Int) { cpu.logSoftmax(x, count: count) }
    func add(_ x: UnsafePointer<Float>, into y: UnsafeMutablePointer<Float>, count: Int) { cpu.add(x, into: y, count: count) }
    func activate(_ activation: Activation, _ x: UnsafeMutablePointer<Float>, count: Int) { cpu.activate(activation, x, count: count) }
    func attentionScores(q: UnsafePointer<Float>, ldq: Int, m: Int, keys: UnsafePointer<Float>, ldk: Int, n: Int,
                         dh: Int, alpha: Float, order: AttentionKernels.Order, out: UnsafeMutablePointer<Float>,
                         ldo: Int, scratch: UnsafeMutablePointer<Float>) {
        cpu.attentionScores(q: q, ldq: ldq, m: m, keys: keys, ldk: ldk, n: n, dh: dh, alpha: alpha, order: order,
                            out: out, ldo: ldo, scratch: scratch)
    }
    func attentionWeightedSum(weights: UnsafePointer<Float>, ldw: Int, m: Int, values: UnsafePointer<Float>, ldv: Int,
                              n: Int, dh: Int, out: UnsafeMutablePointer<Float>, ldo: Int) {
        cpu.attentionWeightedSum(weights: weights, ldw: ldw, m: m, values: values, ldv: ldv, n: n, dh: dh, out: out, ldo: ldo)
    }
    func setLibraryThreads(_ count: Int) { cpu.setLibraryThreads(count) }
}

/// A compute backend is chosen by whoever builds the engine (the composition root): the engine
/// prepares its models for that backend and runs every product on it, and refuses a backend
/// that cannot run here with the backend's own reason.
@Suite struct BackendInjectionTests {
    func engine(_ backend: any ComputeBackend) throws -> NeuralEngine {
        var configuration = NeuralEngine.Configuration()
        configuration.defaults.beamSize = 2   // the tiny model allows at most half its 6 tokens
        configuration.idleUnloadSeconds = nil
        configuration.backend = backend
        return NeuralEngine(store: ModelStore(root: try tinyModelsFolder()), configuration: configuration)
    }

    @Test func theEngineRunsOnTheBackendItIsGiven() async throws {
        let pair = LanguagePair(source: "en", target: "de")
        let texts = ["a b c", "b a", "c b b a"]
        let recording = RecordingBackend()
        let injected = try engine(recording)
        let plain = try engine(CPUBackend.default)
        let got = try await injected.translate(texts, pair: pair, options: TranslationOptions())
        let want = try await plain.translate(texts, pair: pair, options: TranslationOptions())
        await injected.shutdown()
        await plain.shutdown()
        #expect(got == want)
        #expect(recording.products.value.withLock { $0 } > 0)
    }

    @Test func aBackendThatCannotRunHereIsRefusedWithItsReason() async throws {
        let engine = try engine(RecordingBackend(refusal: "No device of this kind on this machine."))
        await #expect(throws: TranslationError.self) {
            _ = try await engine.translate(["a b"], pair: LanguagePair(source: "en", target: "de"), options: TranslationOptions())
        }
        do {
            _ = try await engine.translate(["a b"], pair: LanguagePair(source: "en", target: "de"), options: TranslationOptions())
        } catch let error as TranslationError {
            #expect(error.message.contains("No device of this kind on this machine."))
        }
        await engine.shutdown()
    }
}

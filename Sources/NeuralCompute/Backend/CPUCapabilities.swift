import CCPUFeatures

/// What this CPU can run, read once from CCPUFeatures (CTranslate2's `cpu_isa`): the facts the
/// CPU backend picks its kernels from (`CPUBackend.init(capabilities:preference:)`, the only
/// place that does). A value, so tests can describe another CPU and check the choice.
public struct CPUCapabilities: Sendable, Equatable {
    /// AVX2 and FMA: the Haswell level NeuralEngine and NeuralKernelsAVX2 are compiled for.
    /// Without them the engine refuses to load a model (its code would fault).
    public var avx2FMA: Bool
    /// AVX-512 F/BW/VL and VNNI: NeuralKernelsAVX512's int8 (`vpdpbusd`) and float32 kernels.
    public var avx512VNNI: Bool

    /// A CPU with these features (tests describe other CPUs with it).
    public init(avx2FMA: Bool, avx512VNNI: Bool) {
        self.avx2FMA = avx2FMA
        self.avx512VNNI = avx512VNNI
    }

    /// This process's CPU. Read once: the answer cannot change while the process runs, and
    /// `cpuid` is not free.
    public static let current = CPUCapabilities(avx2FMA: glossa_cpu_has_avx2_fma() != 0,
                                         avx512VNNI: glossa_cpu_has_avx512_vnni() != 0)
}

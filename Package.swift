// swift-tools-version:6.0
// Glossa: a self-hosted, offline translation service and Swift SDK.
// Targets depend one way: TranslationCore ← engines/detection ← TranslationService ← transports ← glossa.
import PackageDescription

let package = Package(
    name: "Glossa",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "glossa", targets: ["glossa"]),
        .library(name: "TranslationCore", targets: ["TranslationCore"]),
    ],
    targets: [
        // The domain core: languages, formats, requests/results, engine and detector protocols.
        .target(name: "TranslationCore"),

        // CLD2 (Debian libcld2-dev) behind a small C ABI.
        .target(
            name: "CCLD2Shim",
            cxxSettings: [.unsafeFlags(["-I/usr/include/cld2"])],
            linkerSettings: [.linkedLibrary("cld2"), .linkedLibrary("stdc++")]
        ),
        .target(name: "LanguageDetection", dependencies: ["TranslationCore", "CCLD2Shim"]),

        // Apertium rule-based engine: warm null-flush pipelines of Debian's apertium tools.
        .target(name: "ApertiumEngine", dependencies: ["TranslationCore"]),

        // Neural engine: CTranslate2 / Argos Translate models run in Swift over OpenBLAS.
        .systemLibrary(name: "CBLAS"),
        .systemLibrary(name: "CZlib"),
        .target(name: "CCPUFeatures"),
        .target(
            name: "CSentencePieceShim",
            linkerSettings: [.linkedLibrary("sentencepiece"), .linkedLibrary("stdc++")]
        ),
        .target(
            name: "NeuralEngine",
            dependencies: ["TranslationCore", "CBLAS", "CZlib", "CSentencePieceShim", "CCPUFeatures"],
            // Numeric loops are ~100× slower unoptimised; the reference tests run debug builds.
            swiftSettings: [
                .unsafeFlags(["-O"], .when(configuration: .debug)),
                // The int8 and skinny float kernels are plain Swift loops: let LLVM use AVX2/FMA
                // (Haswell level: AVX2, FMA, 2013+ CPUs). NeuralEngine refuses to start on CPUs without them
                // (CPUFeatures.swift), so this can never run an unsupported instruction.
                .unsafeFlags(["-target-cpu", "haswell"], .when(platforms: [.linux])),
                // Dynamic exclusivity checks on the workspace/state classes cost ~13 % of a
                // decode (profiled); those objects are confined to one worker thread.
                .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release)),
            ]
        ),
        // Runs a model over token lists from a JSON file; the reference check against CTranslate2.
        .executableTarget(name: "glossa-neural-check", dependencies: ["NeuralEngine"]),

        // Routing pair → engine, pivoting, batching. Engines are injected, never imported.
        .target(name: "TranslationService", dependencies: ["TranslationCore"]),

        // The CLI and composition root (wiring only).
        .executableTarget(
            name: "glossa",
            dependencies: ["TranslationCore", "ApertiumEngine", "LanguageDetection", "TranslationService", "NeuralEngine"]
        ),

        .testTarget(name: "TranslationCoreTests", dependencies: ["TranslationCore"]),
        .testTarget(name: "NeuralEngineTests", dependencies: ["NeuralEngine", "TranslationCore"]),
        .testTarget(name: "TranslationServiceTests", dependencies: ["TranslationService", "TranslationCore"]),
    ],
    swiftLanguageModes: [.v6]
)

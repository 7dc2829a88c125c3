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

        // Routing pair → engine, pivoting, batching. Engines are injected, never imported.
        .target(name: "TranslationService", dependencies: ["TranslationCore"]),

        // The CLI and composition root (wiring only).
        .executableTarget(
            name: "glossa",
            dependencies: ["TranslationCore", "ApertiumEngine", "LanguageDetection", "TranslationService"]
        ),

        // Words per second of the Apertium engine against the raw `apertium` command, same run.
        .executableTarget(name: "apertium-bench", dependencies: ["ApertiumEngine", "TranslationCore"],
                          path: "Benchmarks/apertium-bench"),

        .testTarget(name: "TranslationCoreTests", dependencies: ["TranslationCore"]),
        .testTarget(name: "TranslationServiceTests", dependencies: ["TranslationService", "TranslationCore"]),
        .testTarget(name: "ApertiumEngineTests", dependencies: ["ApertiumEngine", "TranslationCore"]),
    ],
    swiftLanguageModes: [.v6]
)

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

        // CLD2 (Debian libcld2-dev) behind a small C ABI. The shim includes <cld2/public/...>
        // from /usr/include, so no extra header path (and no unsafeFlags) is needed.
        // Link order matters: libcld2_full holds only CLD2's larger tables (160+ languages, e.g.
        // Esperanto, Occitan, Nynorsk) under the same symbol names as the default tables inside
        // libcld2; listed first, its definitions interpose on libcld2's at load time.
        // LanguageDetectionTests checks that the full tables are the ones in use.
        .target(
            name: "CCLD2Shim",
            linkerSettings: [
                .linkedLibrary("cld2_full"), .linkedLibrary("cld2"), .linkedLibrary("stdc++"),
            ]
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

        .testTarget(name: "TranslationCoreTests", dependencies: ["TranslationCore"]),
        .testTarget(name: "TranslationServiceTests", dependencies: ["TranslationService", "TranslationCore"]),
        .testTarget(name: "LanguageDetectionTests", dependencies: ["LanguageDetection", "TranslationCore"]),
    ],
    swiftLanguageModes: [.v6]
)

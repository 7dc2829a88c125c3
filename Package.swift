// swift-tools-version:6.0
// Glossa: a self-hosted, offline translation service and Swift SDK.
// Targets depend one way: TranslationCore ← engines/detection ← TranslationService ← transports ← glossa.
import PackageDescription

let package = Package(
    name: "Glossa",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "glossa", targets: ["glossa"]),
        .executable(name: "glossa-apertium-tagger", targets: ["glossa-apertium-tagger"]),
        .library(name: "TranslationCore", targets: ["TranslationCore"]),
        .library(name: "TranslationKit", targets: ["TranslationKit"]),
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
        // apertium-tagger over libapertium (Debian apertium-dev) with its model restored after
        // every null-flushed request; ApertiumEngine runs it in place of the stock tagger (see
        // its main.cpp for the state apertium-tagger keeps).
        .executableTarget(
            name: "glossa-apertium-tagger",
            linkerSettings: [
                .linkedLibrary("apertium"), .linkedLibrary("lttoolbox"), .linkedLibrary("icuio"),
                .linkedLibrary("icuuc"), .linkedLibrary("stdc++"),
            ]
        ),

        // Neural engine: CTranslate2 / Argos Translate models run in Swift over OpenBLAS.
        .systemLibrary(name: "CBLAS"),
        .systemLibrary(name: "CZlib"),
        .target(name: "CCPUFeatures"),
        .target(
            name: "CSentencePieceShim",
            linkerSettings: [.linkedLibrary("sentencepiece"), .linkedLibrary("stdc++")]
        ),
        // GEMM kernels for CPUs with AVX-512 (F/BW/VL + VNNI): int8 (`vpdpbusd`) and float32 over
        // weights packed at load. Compiled for such a CPU; NeuralEngine calls them only after
        // checking the CPU at run time (glossa_cpu_has_avx512_vnni), so other CPUs never run
        // their instructions. `vpdpbusd` is reached through the Builtin module (an LLVM
        // intrinsic), since Swift has no other way to name that instruction.
        .target(
            name: "NeuralKernelsAVX512",
            dependencies: ["NeuralKernelsAVX2"],
            swiftSettings: [
                .enableExperimentalFeature("BuiltinModule"),
                .unsafeFlags(["-O"], .when(configuration: .debug)),
                .unsafeFlags(["-target-cpu", "icelake-server"], .when(platforms: [.linux])),
                // No cross-module inlining: VNNI code must not end up inside AVX2-only callers.
                .unsafeFlags(["-Xfrontend", "-disable-cmo"]),
            ]
        ),
        // The int8 GEMM for AVX2 CPUs without VNNI (`vpmaddwd`, also via the Builtin module).
        // Haswell level, like NeuralEngine itself, which refuses CPUs without AVX2/FMA.
        .target(
            name: "NeuralKernelsAVX2",
            swiftSettings: [
                .enableExperimentalFeature("BuiltinModule"),
                .unsafeFlags(["-O"], .when(configuration: .debug)),
                .unsafeFlags(["-target-cpu", "haswell"], .when(platforms: [.linux])),
            ]
        ),
        .target(
            name: "NeuralEngine",
            dependencies: ["TranslationCore", "CBLAS", "CZlib", "CSentencePieceShim", "CCPUFeatures",
                           "NeuralKernelsAVX512", "NeuralKernelsAVX2"],
            // Numeric loops are ~100× slower unoptimised; the reference tests run debug builds.
            swiftSettings: [
                // VectorMath.swift (only) imports Builtin for single LLVM vector instructions
                // (fma, floor, min/max, blend) that the stdlib's generic SIMD methods do not emit.
                // Kept in this module so the math inlines into Kernels' loops without becoming
                // public API of a kernel target.
                .enableExperimentalFeature("BuiltinModule"),
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

        // libmicrohttpd (Debian libmicrohttpd-dev), and a shim for its variadic C calls.
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .target(name: "CMicroHTTPDShim", dependencies: ["CMicroHTTPD"]),

        // An async Request → Response HTTP/1.1 server over libmicrohttpd.
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD", "CMicroHTTPDShim"]),

        // The wire protocols as dialects (Google v2, AJAX v1, APy, LibreTranslate, DeepL, Glossa's
        // own), a router with middleware, health, metrics and OpenAPI, over TranslationService.
        .target(name: "ServerAPI", dependencies: ["HTTPServer", "TranslationService", "TranslationCore", "GlossaWire", "WebApp"]),

        // The wire shapes the server writes and the SDK reads (JSON, Google v2 bodies, the
        // streaming endpoint, the pair list), defined once.
        .target(name: "GlossaWire", dependencies: ["TranslationCore"]),

        // The Swift SDK: Apple's Translation API (TranslationSession, LanguageAvailability) over
        // local engines or a Glossa server, and a typed Google v2 client.
        .target(name: "TranslationKit", dependencies: ["TranslationCore", "TranslationService", "GlossaWire"]),

        // The web app, overlay script and demo page, embedded at build time from WebApp/WebRoot.
        .target(name: "WebApp", exclude: ["WebRoot"], plugins: ["EmbedWebRoot"]),
        .plugin(name: "EmbedWebRoot", capability: .buildTool(), dependencies: ["WebRootEmbedder"]),
        .executableTarget(name: "WebRootEmbedder"),

        // The CLI and composition root (wiring only).
        .executableTarget(
            name: "glossa",
            dependencies: ["TranslationCore", "ApertiumEngine", "LanguageDetection", "TranslationService", "ServerAPI", "HTTPServer", "NeuralEngine"]
        ),

        // Runnable TranslationKit examples (built by `swift build`, run by TranslationKitTests).
        .executableTarget(name: "CafeNames", dependencies: ["TranslationKit", "TranslationService", "ApertiumEngine", "LanguageDetection"],
                          path: "Examples/CafeNames"),
        .executableTarget(name: "ArticleExcerpts", dependencies: ["TranslationKit", "TranslationService", "ApertiumEngine", "LanguageDetection"],
                          path: "Examples/ArticleExcerpts"),
        .executableTarget(name: "GoogleTutorial", dependencies: ["TranslationKit"], path: "Examples/GoogleTutorial"),

        // Words per second of the Apertium engine against the raw `apertium` command, same run.
        .executableTarget(name: "apertium-bench", dependencies: ["ApertiumEngine", "TranslationCore"],
                          path: "Benchmarks/apertium-bench"),

        .testTarget(name: "TranslationCoreTests", dependencies: ["TranslationCore"]),
        .testTarget(name: "NeuralEngineTests", dependencies: ["NeuralEngine", "TranslationCore"]),
        .testTarget(name: "TranslationServiceTests", dependencies: ["TranslationService", "TranslationCore"]),
        .target(name: "HTTPTestSupport", path: "Tests/HTTPTestSupport"),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "HTTPTestSupport"]),
        .testTarget(name: "ServerAPITests", dependencies: ["ServerAPI", "HTTPServer", "HTTPTestSupport", "TranslationService", "TranslationCore"]),
        .testTarget(name: "WebAppTests", dependencies: ["WebApp"]),
        .testTarget(name: "TranslationKitTests", dependencies: ["TranslationKit", "TranslationService", "TranslationCore", "GlossaWire", "ServerAPI", "HTTPServer", "HTTPTestSupport", "ApertiumEngine", "LanguageDetection"]),
        .testTarget(name: "ApertiumEngineTests", dependencies: ["ApertiumEngine", "TranslationCore"]),
        .testTarget(name: "LanguageDetectionTests", dependencies: ["LanguageDetection", "TranslationCore"]),
    ],
    swiftLanguageModes: [.v6]
)

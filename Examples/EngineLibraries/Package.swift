// swift-tools-version:6.0
// A package of its own, outside Glossa's targets, that uses Glossa's engines in its own process
// through the library products: the way another Swift program would. `name: "Glossa"` keeps the
// product references below valid whatever the Glossa checkout's folder is called.
import PackageDescription

let package = Package(
    name: "EngineLibraries",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Glossa", path: "../..")],
    targets: [
        .executableTarget(name: "EnginesInProcess", dependencies: [
            .product(name: "TranslationService", package: "Glossa"),
            .product(name: "ApertiumEngine", package: "Glossa"),
            .product(name: "LanguageDetection", package: "Glossa"),
            .product(name: "NeuralEngine", package: "Glossa"),
        ]),
    ]
)

// Cafe names translated with a streaming batch: each name is sent with its index as the
// `clientIdentifier`, and each translation is printed the moment it arrives (not in order),
// then the menu board is printed in its original order.
//
//   swift run CafeNames                                  # engines in this process
//   swift run CafeNames --server http://127.0.0.1:8080   # a running `glossa serve` (or GLOSSA_URL)
//   swift run CafeNames --target ca
import ApertiumEngine
import Foundation
import LanguageDetection
import TranslationKit
import TranslationService

let cafes = [
    "The Little Coffee House",
    "Morning Bread and Coffee",
    "The Green Garden Cafe",
    "Sweet Cake Corner",
    "The Old Bookshop Cafe",
    "Blue Door Tea Room",
]

let arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String) -> String? {
    arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}
let serverURL = option("--server") ?? ProcessInfo.processInfo.environment["GLOSSA_URL"]
let backend: TranslationSession.Backend = serverURL.flatMap(URL.init(string:)).map { .server($0) }
    ?? .local(makeService: { await TranslationService(engines: [ApertiumEngine()], detector: GlossaDetector()) })

let session = TranslationSession(
    configuration: .init(source: Locale.Language(identifier: "en"), target: Locale.Language(identifier: option("--target") ?? "es")),
    backend: backend)
let requests = cafes.enumerated().map { index, name in
    TranslationSession.Request(sourceText: name, clientIdentifier: String(index))
}

do {
    var translated = [String?](repeating: nil, count: cafes.count)
    for try await response in session.translate(batch: requests) {
        guard let id = response.clientIdentifier, let index = Int(id) else { continue }
        translated[index] = response.targetText
        print("arrived #\(index): \(response.targetText)")
    }
    print("--- menu board ---")
    for (name, translation) in zip(cafes, translated) {
        print("\(name) → \(translation ?? "(missing)")")
    }
} catch {
    FileHandle.standardError.write(Data("CafeNames: \(error)\n".utf8))
    exit(1)
}

// Article excerpts translated with `translations(from:)`: each excerpt has a UUID, sent as the
// `clientIdentifier`, and every response is matched back to its article by that UUID.
//
//   swift run ArticleExcerpts                                  # engines in this process
//   swift run ArticleExcerpts --server http://127.0.0.1:8080   # a running `glossa serve` (or GLOSSA_URL)
import ApertiumEngine
import Foundation
import LanguageDetection
import TranslationKit
import TranslationService

struct Article {
    let id = UUID()
    let title: String
    let excerpt: String
    var translatedExcerpt: String?
}

var articles = [
    Article(title: "City council", excerpt: "The city council approved the new budget for public libraries."),
    Article(title: "Weather", excerpt: "Heavy rain is expected in the north of the country this weekend."),
    Article(title: "Science", excerpt: "Researchers found a new species of frog in the mountains."),
    Article(title: "Sport", excerpt: "The local team won the final match of the season."),
]

let arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String) -> String? {
    arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}
let serverURL = option("--server") ?? ProcessInfo.processInfo.environment["GLOSSA_URL"]
let backend: TranslationSession.Backend = serverURL.flatMap(URL.init(string:)).map { .server($0) }
    ?? .local(makeService: { await TranslationService(engines: [ApertiumEngine()], detector: GlossaDetector()) })

// No source language: each excerpt's language is detected.
let session = TranslationSession(configuration: .init(source: nil, target: Locale.Language(identifier: option("--target") ?? "es")),
                                 backend: backend)
let requests = articles.map { TranslationSession.Request(sourceText: $0.excerpt, clientIdentifier: $0.id.uuidString) }

do {
    let responses = try await session.translations(from: requests)
    for response in responses {
        guard let index = articles.firstIndex(where: { $0.id.uuidString == response.clientIdentifier }) else { continue }
        articles[index].translatedExcerpt = response.targetText
    }
    for article in articles {
        print("[\(article.id.uuidString)] \(article.title)")
        print("  \(article.excerpt)")
        print("  → \(article.translatedExcerpt ?? "(missing)")")
    }
} catch {
    FileHandle.standardError.write(Data("ArticleExcerpts: \(error)\n".utf8))
    exit(1)
}

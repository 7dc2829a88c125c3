// The Google Cloud Translation tutorial's flow with `GoogleTranslationClient`: detect the
// language of a text, list the languages (named in English), then translate the text.
// Works against Google (GOOGLE_API_KEY) or any Glossa server:
//
//   swift run GoogleTutorial --server http://127.0.0.1:8080 "¿Dónde está la biblioteca?" en
//   GLOSSA_URL=http://127.0.0.1:8080 swift run GoogleTutorial
import Foundation
import TranslationKit

var arguments = Array(CommandLine.arguments.dropFirst())
var server = ProcessInfo.processInfo.environment["GLOSSA_URL"]
if let flag = arguments.firstIndex(of: "--server"), flag + 1 < arguments.count {
    server = arguments[flag + 1]
    arguments.removeSubrange(flag...(flag + 1))
}
let text = arguments.first ?? "¿Dónde está la biblioteca?"
let target = arguments.count > 1 ? arguments[1] : "en"

let client: GoogleTranslationClient
if let server, let url = URL(string: server) {
    client = GoogleTranslationClient(baseURL: url, apiKey: ProcessInfo.processInfo.environment["GLOSSA_API_KEY"])
} else if let key = ProcessInfo.processInfo.environment["GOOGLE_API_KEY"] {
    client = GoogleTranslationClient(apiKey: key)
} else {
    FileHandle.standardError.write(Data("GoogleTutorial: give --server URL (or GLOSSA_URL), or GOOGLE_API_KEY for Google itself\n".utf8))
    exit(2)
}

do {
    // 1. Detect.
    let detection = try await client.detect(text)
    print("detected: \(detection.language) (confidence \(detection.confidence.map { String(format: "%.2f", $0) } ?? "?"))")

    // 2. Languages, with names, to show the detected and target languages by name.
    let languages = try await client.languages(displayLanguage: "en")
    let name = { (code: String) in languages.first { $0.language == code }?.name ?? code }
    print("languages: \(languages.count) available")
    print("from \(name(detection.language)) to \(name(target))")

    // 3. Translate.
    let translation = try await client.translate(text, to: target, from: detection.language)
    print("translation: \(translation.translatedText)")
} catch let error as GoogleTranslationError {
    FileHandle.standardError.write(Data("GoogleTutorial: \(error)\n".utf8))
    exit(1)
}

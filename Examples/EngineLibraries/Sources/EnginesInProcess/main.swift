// Glossa's engines in this process, no server: detect a text's language with LanguageDetection,
// translate with the Apertium pairs installed on this machine and any neural models in a models
// folder, through one TranslationService.
//
//     swift run --package-path Examples/EngineLibraries EnginesInProcess [--models DIR] [--target es] TEXT…
import ApertiumEngine
import Foundation
import LanguageDetection
import NeuralEngine
import TranslationCore
import TranslationService

/// The value after `name` in `arguments`, removed from them with its option.
func take(_ name: String, from arguments: inout [String]) -> String? {
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
    defer { arguments.removeSubrange(i...(i + 1)) }
    return arguments[i + 1]
}
var arguments = Array(CommandLine.arguments.dropFirst())
let target: LanguageCode
do { target = try LanguageCode(parsing: take("--target", from: &arguments) ?? "es") } catch {
    FileHandle.standardError.write(Data("EnginesInProcess: --target: \(error)\n".utf8))
    exit(2)
}
let modelsFolder = take("--models", from: &arguments).map { URL(fileURLWithPath: $0) }
    ?? FileManager.default.temporaryDirectory.appendingPathComponent("engines-in-process-models")
let texts = arguments.isEmpty ? ["The house is red."] : arguments

let neural = NeuralEngine(store: ModelStore(root: modelsFolder))
let service = await TranslationService(engines: [ApertiumEngine(), neural], detector: GlossaDetector())
print("routes: \(service.routes().count) (Apertium pairs, neural models, and pivots through them)")
for detection in await service.detect(texts) {
    print("detected: \(detection.language?.description ?? "und") \(String(format: "%.2f", detection.confidence))")
}
do {
    for result in try await service.translate(texts, from: nil, to: target) {
        print("\(result.source?.description ?? "und") → \(result.target): \(result.translatedText)")
    }
} catch {
    FileHandle.standardError.write(Data("EnginesInProcess: \(error)\n".utf8))
    exit(1)
}
await service.shutdown()

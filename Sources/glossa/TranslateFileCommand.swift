import Documents
import Foundation
import TranslationCore
import TranslationService

/// `glossa translate --file IN --output OUT`: one document, any format the Documents module reads.
enum TranslateFileCommand {
    /// Translates the document at `input` into `output` (`-` is stdout). Without a source, the
    /// language is detected once from the document's text. A progress bar is drawn on stderr
    /// when it is a terminal.
    static func run(input: String, output: String, source: LanguageCode?, target: LanguageCode,
                    options: TranslationOptions, service: TranslationService) async throws {
        let bytes: [UInt8]
        do { bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: input))) } catch {
            throw TranslationError(.invalidInput, "cannot read \(input): \((error as NSError).localizedDescription)")
        }
        let workflow = DocumentTranslation(service: service)
        do {
            let from = try await workflow.source(of: bytes, given: source,
                                                 unidentified: "Could not identify the language of \(input); give --from.")
            let label = URL(fileURLWithPath: input).lastPathComponent
            let bar = Console.stderrIsTerminal ? ProgressBar() : nil
            let result = try await workflow.translate(bytes, from: from, to: target, options: options,
                                                      progress: { bar?.show(label, $0.fraction) })
            bar?.finish()
            if output == "-" {
                FileHandle.standardOutput.write(Data(result.bytes))
            } else {
                do { try Data(result.bytes).write(to: URL(fileURLWithPath: output)) } catch {
                    throw TranslationError(.invalidInput, "cannot write \(output): \((error as NSError).localizedDescription)")
                }
            }
        } catch let error as DocumentError {
            throw TranslationError(error.code == .tooLarge ? .limitExceeded : .invalidInput, "\(input): \(error.message)")
        }
    }
}

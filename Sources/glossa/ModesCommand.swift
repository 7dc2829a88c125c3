import ApertiumEngine
import Foundation
import TranslationCore

/// `glossa modes [--export DIR]`: the Apertium analysis modes (what APy's /list?q=analyzers,
/// generators and taggers show), or the same modes written out for apertium-apy.
enum ModesCommand {
    static let help = """
        USAGE: glossa modes [--export DIR]

        Lists the Apertium analysis modes Glossa runs for APy's /analyze, /generate, /perWord and
        /calcCoverage: the installed analyser, generator and tagger mode files, and those every
        installed pair holds (eng-spa gives eng-spa-morph, eng-spa-tagger, eng-spa-autobil and
        eng-spa-gener; each language's first pair gives eng-morph, eng-tagger, spa-gener). One per
        line: KIND KEY NAME.

        OPTIONS:
              --export DIR   write every mode as DIR/modes/NAME.mode (and each pair's bilingual
                             dictionary as DIR/KEY.autobil.bin), so that `apertium-apy -s DIR`
                             serves the same modes
          -h, --help         show this help

        \(ExitCode.helpText)
        """

    static func run(_ argv: [String]) async -> Int32 {
        let args: Arguments
        do {
            args = try Arguments(argv, options: ["--export"], flags: ["--help"], aliases: ["-h": "--help"])
        } catch {
            return Failure.report(error, usage: "glossa modes --help")
        }
        if args.has("--help") { Console.out(help); return ExitCode.success.rawValue }
        let engine = ApertiumEngine(configuration: ApertiumEngine.Configuration(), environment: ProcessInfo.processInfo.environment)
        if let directory = args.value("--export") {
            do { try engine.exportLanguageModes(to: URL(fileURLWithPath: directory)) } catch {
                Console.error("cannot write the modes into \(directory): \(error)")
                return ExitCode.failure.rawValue
            }
        } else {
            for mode in engine.languageModes() { Console.out("\(mode.kind.rawValue)\t\(mode.key)\t\(mode.name)") }
        }
        return ExitCode.success.rawValue
    }
}

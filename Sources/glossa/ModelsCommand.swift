import Foundation
import NeuralEngine
import Synchronization
import TranslationCore

/// `glossa models install PATH_OR_URL | list | remove NAME`: manages the neural models in
/// `$XDG_DATA_HOME/glossa/models`. Returns the process exit status (0 ok, 1 failure, 2 usage).
func runModels(arguments: [String]) async -> Int32 {
    let store = ModelStore(root: ModelStore.defaultRoot())
    let usage = "usage: glossa models install PATH_OR_URL | list | remove NAME (see `glossa models --help`)"
    if arguments.first == "--help" || arguments.first == "-h" {
        Console.out(modelsHelp)
        return 0
    }
    guard let command = arguments.first else {
        FileHandle.standardError.write(Data((usage + "\n").utf8))
        return 2
    }
    do {
        switch (command, arguments.count) {
        case ("install", 2):
            let bar = ProgressBar()
            let model = try await store.install(from: arguments[1]) { stage, fraction in
                bar.show(stage == "download" ? "Downloading" : "Unpacking", fraction)
            }
            bar.finish()
            print("Installed \(model.name) (\(model.metadata.fromCode) → \(model.metadata.toCode)) in \(model.directory.path)")
        case ("list", 1):
            let listing = store.list()
            if listing.models.isEmpty && listing.skipped.isEmpty { print("No neural models installed in \(store.root.path).") }
            for m in listing.models { print("\(m.name)\t\(m.metadata.fromCode)-\(m.metadata.toCode)\t\(m.directory.path)") }
            for (name, reason) in listing.skipped.sorted(by: { $0.key < $1.key }) { print("\(name)\tunusable: \(reason)") }
        case ("remove", 2):
            try store.remove(arguments[1])
            print("Removed \(arguments[1]).")
        default:
            FileHandle.standardError.write(Data((usage + "\n").utf8))
            return 2
        }
        return 0
    } catch let error as TranslationError {
        FileHandle.standardError.write(Data(("glossa: \(error.message)\n").utf8))
        return 1
    } catch {
        FileHandle.standardError.write(Data(("glossa: \(error)\n").utf8))
        return 1
    }
}

let modelsHelp = """
    USAGE: glossa models install PATH_OR_URL
           glossa models list
           glossa models remove NAME

    Manages the neural models (Argos Translate `.argosmodel` packages: a CTranslate2 model and
    its SentencePiece model) in $XDG_DATA_HOME/glossa/models (default ~/.local/share/glossa/models).
    `install` reads a file or a URL you give, with a progress bar for the download and unpacking;
    Glossa never downloads a model by itself. Installed pairs appear in `glossa pairs`, `glossa
    languages` and every API; GLOSSA_PREFER=neural makes them win over Apertium pairs.

    OPTIONS:
      -h, --help   show this help

    Exit codes:
      0  success
      1  the package is malformed, truncated or unsupported (the message names the file), or the
         download failed
      2  usage error
    """

/// A one-line progress bar on standard error (redrawn with a carriage return).
final class ProgressBar: Sendable {
    // Callbacks may come from another thread; the last line drawn is kept under a mutex.
    private let last = Mutex("")

    func show(_ label: String, _ fraction: Double) {
        let f = min(max(fraction, 0), 1)
        let width = 30
        let filled = Int(f * Double(width))
        let line = "\(label) [\(String(repeating: "#", count: filled))\(String(repeating: " ", count: width - filled))] \(Int(f * 100))%"
        let changed = last.withLock { previous in
            defer { previous = line }
            return previous != line
        }
        if changed { FileHandle.standardError.write(Data(("\r" + line).utf8)) }
    }

    func finish() {
        if !last.withLock({ $0.isEmpty }) { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}

import Foundation

/// What a mode file's pipeline needs before it can run: the programs its stages start and the
/// files it names. Reading the file is cheap, so every installed mode is inspected at start-up and
/// a mode that names a file which is not there is unavailable without starting a process
/// (Debian's `apertium-eo-ca` and `apertium-eo-es` name `/usr/share/apertium/apertium-eo-ca/…`
/// and `…/apertium-eo-es/…` but install their data under `apertium-ca-eo/` and `apertium-es-eo/`).
struct ModeInspection: Sendable, Equatable {
    /// The mode file's text.
    let command: String
    /// Absolute paths the pipeline names (transducers, rules, models), in order of appearance.
    let files: [String]
    /// The program each stage runs (`lt-proc`, `cg-proc`, `apertium-tagger`).
    let programs: [String]

    /// Reads and inspects `modeFile`; nil when it cannot be read.
    init?(modeFile: URL) {
        guard let data = FileManager.default.contents(atPath: modeFile.path) else { return nil }
        self.init(command: String(decoding: data, as: UTF8.self))
    }

    /// Inspects a mode's command: stages are separated by `|`, words by blanks, and paths may be
    /// quoted with `'` or `"` as Apertium's modes.xml compiler writes them.
    init(command: String) {
        self.command = command
        var files: [String] = []
        var programs: [String] = []
        for stage in Self.words(in: command) {
            guard let program = stage.first else { continue }
            programs.append(program)
            for word in stage.dropFirst() where Self.isFile(word) && !files.contains(word) { files.append(word) }
        }
        self.files = files
        self.programs = programs
    }

    /// Why the mode cannot run here, or nil when every program and file it needs is present.
    func problem(path environmentPath: String) -> String? {
        let missingPrograms = programs.filter { Self.resolve($0, path: environmentPath) == nil }
        if let program = missingPrograms.first {
            return "its pipeline runs \(program), which is not installed"
        }
        let missingFiles = files.filter { !FileManager.default.fileExists(atPath: $0) }
        if let file = missingFiles.first {
            let more = missingFiles.count > 1 ? " (and \(missingFiles.count - 1) more of its \(files.count) files)" : ""
            return "the mode file names \(file), which does not exist\(more)"
        }
        return nil
    }

    /// Whether a word names a file: an absolute path with no blank whose first component exists
    /// (`/usr/share/…`), so that a sed address such as `/x/d` is not taken for one.
    static func isFile(_ word: String) -> Bool {
        guard word.hasPrefix("/"), !word.contains(where: \.isWhitespace) else { return false }
        let top = word.split(separator: "/").first.map { "/\($0)" } ?? "/"
        return word.dropFirst().contains("/") && FileManager.default.fileExists(atPath: top)
    }

    /// The executable `program` resolves to through `path` (colon-separated), or nil.
    static func resolve(_ program: String, path: String) -> String? {
        if program.contains("/") { return FileManager.default.isExecutableFile(atPath: program) ? program : nil }
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(program)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// The words of each stage, with quotes removed. Shell parameters (`$1`, `$2`) stay words of
    /// their own and are never taken for files.
    private static func words(in command: String) -> [[String]] {
        var stages: [[String]] = [[]]
        var word = ""
        var quote: Character?
        var inWord = false
        func endWord() {
            if inWord { stages[stages.count - 1].append(word) }
            word = ""
            inWord = false
        }
        for ch in command {
            if let q = quote {
                if ch == q { quote = nil } else { word.append(ch) }
            } else if ch == "'" || ch == "\"" {
                quote = ch
                inWord = true
            } else if ch == "|" {
                endWord()
                stages.append([])
            } else if ch.isWhitespace {
                endWord()
            } else {
                word.append(ch)
                inWord = true
            }
        }
        endWord()
        return stages.filter { !$0.isEmpty }
    }
}

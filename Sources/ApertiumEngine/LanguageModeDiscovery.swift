import Foundation
import TranslationCore

/// Apertium's analysis modes: the ones installed as mode files (`eng-morph.mode`, named as APy
/// finds them), and the ones every installed pair already holds.
///
/// Debian installs only translation modes, but a pair's mode is its source language's analyser,
/// tagger, the pair's bilingual dictionary and its target's generator in a row; each prefix or
/// stage is a mode of its own, exactly as the language modules define them (`eng-morph` is
/// `lt-proc -w eng.automorf.bin`). So `eng-spa` gives `eng-spa-morph`, `eng-spa-tagger`,
/// `eng-spa-autobil` and `eng-spa-gener` (keys `eng-spa`), and each language's first pair, by
/// name (spelling converters such as `nno-nno_e` last), gives its plain-language modes
/// `eng-morph`, `eng-tagger`, `spa-gener` (keys `eng`, `spa`), unless a real `eng-morph.mode` is
/// installed, which wins.
enum LanguageModeDiscovery {
    /// A mode: what it is, and its pipeline as a mode file states it.
    struct Mode: Sendable, Equatable {
        var info: LanguageModeInfo
        /// The stages, joined by ` | ` (as in a mode file).
        var command: String
        /// The installed mode file, when there is one.
        var file: URL?
        /// For a bilingual mode, the dictionary (APy's perWord reads `KEY.autobil.bin` beside the modes).
        var dictionary: String?
        /// For a plain-language mode, the same stage of the language's later pairs, in order: run
        /// when the first does not start (an old package whose dictionary lttoolbox cannot read).
        var alternatives: [String] = []
    }

    /// APy's patterns for analysis mode file names (`mode_search.py`).
    private static let code = "[a-z]{2,3}(?:_[A-Za-z0-9]+)?"
    private static let patterns: [(LanguageModeInfo.Kind, String)] = [
        (.analyzer, "((\(code)(?:-\(code))?)-(?:an)?mor(?:ph)?)\\.mode"),
        (.generator, "((\(code)(?:-\(code))?)-gener[A-z]*)\\.mode"),
        (.tagger, "((\(code)(?:-\(code))?)-tagger)\\.mode"),
    ]

    /// The modes of `pairs` and of the analysis mode files in `directories`, sorted, one per name.
    static func discover(pairs: [ApertiumMode], directories: [URL]) -> [Mode] {
        var byName: [String: Mode] = [:]
        for mode in installed(in: directories) where byName[mode.info.name] == nil { byName[mode.info.name] = mode }
        var languageLevel: [String: Mode] = [:]
        // Pairs between two languages come first, spelling converters within one language
        // (`nno-nno_e`) after them: a converter's analyser is made to respell, not to analyse
        // (nno-nno_e's skips lt-proc's `-e` and so lists compound-only readings that nno-nob's,
        // like the language's own nno-morph, leaves out). Otherwise by name.
        func order(_ pair: ApertiumMode) -> (Int, String) { (pair.pair.source.language == pair.pair.target.language ? 1 : 0, pair.name) }
        for pair in pairs.sorted(by: { order($0) < order($1) }) {
            guard let text = try? String(contentsOf: pair.file, encoding: .utf8) else { continue }
            for mode in derived(from: pair, modeFile: text) {
                if byName[mode.info.name] == nil { byName[mode.info.name] = mode }
                // The language-level mode comes from the first pair (in that order) that has one.
                let language = mode.info.kind == .generator ? pair.pair.target.apertiumCode : pair.pair.source.apertiumCode
                let suffix = suffixes[mode.info.kind]!
                let name = "\(language)-\(suffix)"
                guard mode.info.kind != .bilingual else { continue }
                if languageLevel[name] == nil {
                    languageLevel[name] = Mode(info: LanguageModeInfo(kind: mode.info.kind, key: language, name: name),
                                               command: mode.command, file: nil, dictionary: nil)
                } else if languageLevel[name]!.command != mode.command, !languageLevel[name]!.alternatives.contains(mode.command) {
                    languageLevel[name]!.alternatives.append(mode.command)
                }
            }
        }
        for (name, mode) in languageLevel where byName[name] == nil { byName[name] = mode }
        return byName.values.sorted { $0.info < $1.info }
    }

    /// `modes` split into those that can run here and, by name, why each other one cannot: a
    /// program or a file its command names is missing (``ModeInspection``), as with the stages
    /// of a pair whose package names dictionaries it does not install (Debian's `ca-eo` gives
    /// `cat-epo-morph`). A plain-language mode keeps the first of its commands that can run,
    /// and the others that can after it. Found before first use, so such a mode is never
    /// listed and is answered at once as a mode that is not installed, not with a pipeline
    /// that fails to start.
    static func usable(_ modes: [Mode], path: String) -> (usable: [Mode], unavailable: [String: String]) {
        var usable: [Mode] = []
        var unavailable: [String: String] = [:]
        for mode in modes {
            let commands = [mode.command] + mode.alternatives
            let problems = commands.map { ModeInspection(command: $0).problem(path: path) }
            let runnable = zip(commands, problems).filter { $0.1 == nil }.map(\.0)
            guard let first = runnable.first else {
                unavailable[mode.info.name] = problems.compactMap { $0 }.first
                continue
            }
            var kept = mode
            kept.command = first
            kept.alternatives = Array(runnable.dropFirst())
            usable.append(kept)
        }
        return (usable, unavailable)
    }

    private static let suffixes: [LanguageModeInfo.Kind: String] = [.analyzer: "morph", .tagger: "tagger", .generator: "gener", .bilingual: "autobil"]

    /// The stages of a pair's mode file that are modes of their own.
    static func derived(from pair: ApertiumMode, modeFile: String) -> [Mode] {
        let stages = modeFile.trimmingCharacters(in: .whitespacesAndNewlines)
            .split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard let first = stages.first, isProgram(first, ["lt-proc", "lt-proc-j", "hfst-proc"]) else { return [] }
        let key = pair.pair.apertiumName
        func mode(_ kind: LanguageModeInfo.Kind, _ stages: ArraySlice<String>, dictionary: String? = nil) -> Mode {
            Mode(info: LanguageModeInfo(kind: kind, key: key, name: "\(key)-\(suffixes[kind]!)"),
                 command: stages.joined(separator: " | "), file: nil, dictionary: dictionary)
        }
        var modes = [mode(.analyzer, stages[0...0])]
        let bilingual = stages.firstIndex { isProgram($0, ["lt-proc"]) && hasFlag($0, "-b") && !$0.contains("$1") }
        let tagging = stages.firstIndex { isProgram($0, ["apertium-pretransfer"]) } ?? bilingual
        if let tagging, tagging > 1, stages[1..<tagging].contains(where: { isProgram($0, ["apertium-tagger", "cg-proc", "vislcg3"]) }) {
            modes.append(mode(.tagger, stages[0..<tagging]))
        }
        if let bilingual { modes.append(mode(.bilingual, stages[bilingual...bilingual], dictionary: quotedPath(stages[bilingual]))) }
        if let generator = stages.firstIndex(where: { isProgram($0, ["lt-proc"]) && $0.contains("$1") }) {
            // Generation ends where post-generation begins: the next lt-proc (`-p`, or `-x` for
            // spa-cat's diacritics), which generator modes leave out. Most generators write
            // surface forms themselves; some (`nob-nno`: `lt-proc $1 -b`) write each form beside
            // its analysis for a stage after them to choose (`cg-proc -g` with the pair's
            // generation preferences), and without that stage the mode would answer
            // `^ja<ij>/ja$` where the language's own nno-gener answers `ja`.
            let end = stages[(generator + 1)...].firstIndex { isProgram($0, ["lt-proc"]) } ?? stages.endIndex
            modes.append(mode(.generator, stages[generator..<end]))
        }
        return modes
    }

    /// Analysis mode files in `directories`, named as APy's `search_path` recognises them.
    static func installed(in directories: [URL]) -> [Mode] {
        var modes: [Mode] = []
        for directory in directories {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { continue }
            for file in names.sorted() {
                for (kind, pattern) in patterns {
                    guard let regex = try? Regex(pattern), let match = file.wholeMatch(of: regex),
                          let name = match.output[1].substring, let key = match.output[2].substring else { continue }
                    let url = directory.appendingPathComponent(file)
                    guard let command = try? String(contentsOf: url, encoding: .utf8) else { continue }
                    modes.append(Mode(info: LanguageModeInfo(kind: kind, key: apertiumKey(String(key)), name: String(name)),
                                      command: command.trimmingCharacters(in: .whitespacesAndNewlines), file: url))
                    break
                }
            }
        }
        return modes
    }

    /// `en-es` → `eng-spa`, as APy's `to_alpha3_code` turns each code of a key.
    private static func apertiumKey(_ key: String) -> String {
        key.split(separator: "-").map { (try? LanguageCode(parsing: String($0)))?.apertiumCode ?? String($0) }.joined(separator: "-")
    }

    private static func isProgram(_ stage: String, _ programs: [String]) -> Bool {
        let program = stage.split(separator: " ").first.map(String.init) ?? ""
        return programs.contains(program)
    }

    private static func hasFlag(_ stage: String, _ flag: String) -> Bool {
        stage.split(separator: " ").dropFirst().contains { $0 == flag }
    }

    /// The last single-quoted argument of a stage (its data file).
    private static func quotedPath(_ stage: String) -> String? {
        let parts = stage.split(separator: "'", omittingEmptySubsequences: false)
        return parts.count >= 3 ? String(parts[parts.count - 2]) : stage.split(separator: " ").last.map(String.init)
    }
}

import Foundation
import Synchronization
import TranslationCore

extension ApertiumEngine: LanguageModeRunning {
    /// Every analysis mode: installed mode files and those derived from the installed pairs
    /// (see ``LanguageModeDiscovery``).
    public nonisolated func languageModes() -> [LanguageModeInfo] {
        languageModeTable.values.map(\.info).sorted()
    }

    /// Runs the analysis mode `name` over `input` through a warm null-flush pipeline of its own,
    /// as translation pipelines run: started on first use, kept, restarted when it breaks. The
    /// text goes as one frame (no chunking: a cut would add a sentence end to the analysis).
    /// Marks are on, as `apertium` gives them by default (`*unknown`, `#ungeneratable`).
    /// - Throws: ``TranslationError`` `.notInstalled` for a name that is no mode; engine failures.
    public nonisolated func runLanguageMode(_ name: String, input: String, as format: LanguageModeInput) async throws -> String {
        guard let mode = languageModeTable[name] else {
            throw TranslationError(.notInstalled, "No Apertium mode is named \(name).")
        }
        switch format {
        case .text:
            // An analysis (APy's /analyze, /generate) reads every word as the mode would,
            // placeholders too: nothing is translated here, so nothing needs protecting.
            let stream = TextDeformatter.deformat(input, placeholders: false)
            guard !stream.bytes.isEmpty else { return "" }
            let output = try await languagePool(mode).submit([stream.bytes])
            return Reformatter.reformat(output.first ?? [], wordForms: stream.wordForms)
        case .stream:
            // A NUL would end the frame early; the stream format has no use for one.
            let bytes = input.utf8.map { $0 == 0 ? 0x20 : $0 }
            guard !bytes.isEmpty else { return "" }
            try StreamInputCheck.check(bytes)
            let output = try await languagePool(mode).submit([bytes])
            return String(decoding: output.first ?? [], as: UTF8.self)
        }
    }

    /// Writes every analysis mode as a mode file named as APy looks for it into `directory/modes`
    /// (and, for perWord, each pair's bilingual dictionary linked as `directory/KEY.autobil.bin`),
    /// so that `apertium-apy -s directory` serves the same modes. `names` limits it to those modes.
    /// Blocks while it checks commands with cold starts (seconds to minutes): call it from a
    /// thread of its own, not from the cooperative pool.
    public nonisolated func exportLanguageModes(to directory: URL, names: Set<String>? = nil) throws {
        let modes = directory.appendingPathComponent("modes")
        try FileManager.default.createDirectory(at: modes, withIntermediateDirectories: true)
        let all = languageModeTable.values.filter { names?.contains($0.info.name) ?? true }
        // A plain-language mode is written as the first of its commands that runs, which is the
        // one Glossa's pool starts. Each check is a cold start (dictionaries loaded from disk):
        // they run eight at a time on threads of their own (mostly waiting on the children).
        let commands = Mutex([String](repeating: "", count: all.count))
        let done = DispatchGroup()
        let lanes = min(8, all.count)
        for lane in 0..<lanes {
            done.enter()
            Thread.detachNewThread {
                for i in stride(from: lane, to: all.count, by: lanes) {
                    let mode = all[i]
                    let command = mode.alternatives.isEmpty ? mode.command : ([mode.command] + mode.alternatives).first(where: Self.runs) ?? mode.command
                    commands.withLock { $0[i] = command }
                }
                done.leave()
            }
        }
        done.wait()
        for (mode, command) in zip(all, commands.withLock { $0 }) {
            try Data((command + "\n").utf8).write(to: modes.appendingPathComponent(mode.info.name + ".mode"))
            if let dictionary = mode.dictionary {
                let link = directory.appendingPathComponent(mode.info.key + ".autobil.bin")
                try? FileManager.default.removeItem(at: link)
                try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: dictionary)
            }
        }
    }

    /// Whether a mode's command runs: a cold run over a sentence end exits 0 with output.
    private static func runs(_ command: String) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", command, "bash", "-g", ""]
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        // A command that fails at once closes its stdin: the throwing write, not `write(_:)`,
        // which traps on a broken pipe.
        try? stdin.fileHandleForWriting.write(contentsOf: Data(".[]\n".utf8))
        try? stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 && !output.isEmpty
    }

    /// The pool of `mode`, made and started on first use; each call is a use of it (it stays
    /// warm, see ``noteUse(_:)``).
    private func languagePool(_ mode: LanguageModeDiscovery.Mode) async throws -> PipelinePool<ApertiumPipeline> {
        if isShutDown { throw TranslationError(.cancelled, "The Apertium engine has been shut down.") }
        if let pool = languagePools[mode.info.name] {
            noteUse(.analysis(mode.info.name))
            return pool
        }
        // An installed mode file, or the derived command and, should it not start, the same
        // stage of the language's other pairs in turn.
        let files = try mode.file.map { [$0] } ?? ([mode.command] + mode.alternatives).map { try Self.derivedModeFile(name: mode.info.name, command: $0) }
        let limits = PipelinePoolStateMachine<ContinuousClock.Instant>.Limits(
            minPipelines: configuration.minPipelines, maxPipelines: configuration.maxPipelines,
            maxMemoryGrowth: configuration.maxMemoryGrowth, requestTimeout: configuration.requestTimeout)
        let (tagger, timeout, name) = (configuration.resettingTagger, configuration.requestTimeout, mode.info.name)
        let pool = PipelinePool<ApertiumPipeline>(label: name, limits: limits) {
            var failure: any Error = TranslationError(.engineFailure, "The Apertium mode \(name) has no command.")
            for file in files {
                do { return try await Self.startPipeline(file: file, label: name, markUnknownWords: true, tagger: tagger, timeout: timeout) } catch {
                    failure = error
                }
            }
            throw failure
        }
        languagePools[name] = pool
        noteUse(.analysis(name))
        await pool.start()
        return pool
    }

    /// A derived mode's command written as a mode file (apertium-wblank-mode reads files), in a
    /// directory shared by Glossa processes: the file's name holds a hash of its contents, so two
    /// processes with different pairs never overwrite each other's, and a write is atomic.
    private static func derivedModeFile(name: String, command: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("glossa-apertium-modes-\(getuid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in command.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let file = directory.appendingPathComponent("\(name)-\(String(hash, radix: 16)).mode")
        if !FileManager.default.fileExists(atPath: file.path) {
            try Data((command + "\n").utf8).write(to: file, options: .atomic)
        }
        return file
    }
}

extension ApertiumEngine: PipelineReporting {
    /// Live translation pipelines per pair (marking and non-marking pools together).
    public func runningPipelines() async -> [String: Int] {
        var counts: [String: Int] = [:]
        for (key, pool) in poolsByPair() {
            counts[key, default: 0] += await pool.liveCount()
        }
        return counts
    }

    /// The pair's mode stage by stage, as APy's `/pipedebug` shows it: `apertium-deshtml`, each
    /// stage of the mode file (with `-z`, `$1` as `-g`, as APy runs it), `apertium-rehtml-noent`,
    /// each a fresh process fed the previous one's output.
    public nonisolated func debugPipeline(_ pair: LanguagePair, input: String) async throws -> [(command: [String], output: String)] {
        guard let mode = installedModes.first(where: { $0.pair == pair }) else {
            throw TranslationError(.notInstalled, "No Apertium mode translates \(pair).")
        }
        let text = try String(contentsOf: mode.file, encoding: .utf8)
        let stages = text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "|").map { stage -> [String] in
            var words = stage.replacingOccurrences(of: "$2", with: "").replacingOccurrences(of: "$1", with: "-g")
                .split(separator: " ").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "'")) }.filter { !$0.isEmpty }
            let exempt = ["vislcg3", "cg-mwesplit", "hfst-tokenise", "hfst-tokenize", "divvun-suggest"]
            if let program = words.first, !exempt.contains(program) { words.insert("-z", at: 1) }
            return words
        }
        let commands = [["apertium-deshtml"]] + stages + [["apertium-rehtml-noent"]]
        return try await offPool {
            var data = Data(input.utf8)
            var out: [(command: [String], output: String)] = []
            for command in commands {
                data = try Self.runOnce(command, input: data)
                out.append((command, String(decoding: data, as: UTF8.self)))
            }
            return out
        }
    }

    /// The pools of translation pipelines, by the pair's Apertium name.
    private func poolsByPair() -> [(String, PipelinePool<ApertiumPipeline>)] {
        poolsForReporting().map { ($0.0.apertiumName, $0.1) }
    }

    /// Runs `command` (found on the PATH) with `input` on stdin; its stdout.
    private static func runOnce(_ command: [String], input: Data) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        var environment = ProcessInfo.processInfo.environment
        if environment["LC_ALL"] == nil && environment["LANG"] == nil { environment["LC_ALL"] = "C.UTF-8" }
        process.environment = environment
        try process.run()
        let writer = Thread {
            stdin.fileHandleForWriting.write(input)
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return output
    }
}

import Foundation
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
            let stream = TextDeformatter.deformat(input)
            guard !stream.bytes.isEmpty else { return "" }
            let output = try await languagePool(mode).submit([stream.bytes])
            return Reformatter.reformat(output.first ?? [], wordForms: stream.wordForms)
        case .stream:
            // A NUL would end the frame early; the stream format has no use for one.
            let bytes = input.utf8.map { $0 == 0 ? 0x20 : $0 }
            guard !bytes.isEmpty else { return "" }
            let output = try await languagePool(mode).submit([bytes])
            return String(decoding: output.first ?? [], as: UTF8.self)
        }
    }

    /// Writes every analysis mode as a mode file named as APy looks for it into `directory/modes`
    /// (and, for perWord, each pair's bilingual dictionary linked as `directory/KEY.autobil.bin`),
    /// so that `apertium-apy -s directory` serves the same modes.
    public nonisolated func exportLanguageModes(to directory: URL) throws {
        let modes = directory.appendingPathComponent("modes")
        try FileManager.default.createDirectory(at: modes, withIntermediateDirectories: true)
        for mode in languageModeTable.values {
            try Data((mode.command + "\n").utf8).write(to: modes.appendingPathComponent(mode.info.name + ".mode"))
            if let dictionary = mode.dictionary {
                let link = directory.appendingPathComponent(mode.info.key + ".autobil.bin")
                try? FileManager.default.removeItem(at: link)
                try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: dictionary)
            }
        }
    }

    /// The pool of `mode`, made and started on first use.
    private func languagePool(_ mode: LanguageModeDiscovery.Mode) async throws -> PipelinePool<ApertiumPipeline> {
        if isShutDown { throw TranslationError(.cancelled, "The Apertium engine has been shut down.") }
        if let pool = languagePools[mode.info.name] { return pool }
        let file = try mode.file ?? Self.derivedModeFile(mode)
        let limits = PipelinePoolStateMachine<ContinuousClock.Instant>.Limits(
            minPipelines: configuration.minPipelines, maxPipelines: configuration.maxPipelines,
            maxUsesBeforeRestart: configuration.maxUsesBeforeRestart, requestTimeout: configuration.requestTimeout)
        let (tagger, timeout, name) = (configuration.resettingTagger, configuration.requestTimeout, mode.info.name)
        let pool = PipelinePool<ApertiumPipeline>(label: name, limits: limits) {
            try await Self.startPipeline(file: file, label: name, markUnknownWords: true, tagger: tagger, timeout: timeout)
        }
        languagePools[name] = pool
        await pool.start()
        return pool
    }

    /// A derived mode's command written as a mode file (apertium-wblank-mode reads files), in a
    /// directory shared by Glossa processes: the file's name holds a hash of its contents, so two
    /// processes with different pairs never overwrite each other's, and a write is atomic.
    private static func derivedModeFile(_ mode: LanguageModeDiscovery.Mode) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("glossa-apertium-modes-\(getuid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in mode.command.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let file = directory.appendingPathComponent("\(mode.info.name)-\(String(hash, radix: 16)).mode")
        if !FileManager.default.fileExists(atPath: file.path) {
            try Data((mode.command + "\n").utf8).write(to: file, options: .atomic)
        }
        return file
    }
}

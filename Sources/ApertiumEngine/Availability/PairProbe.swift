import Foundation
import Synchronization
import TranslationCore

/// The short check that a mode really translates on this machine: start its pipeline exactly as
/// the pools do, let it load, translate the source language's probe passage (``ProbeTexts``) and
/// expect one framed, non-empty answer in time.
///
/// What it catches, all seen with Debian 12's packages: a stage that crashes on ordinary words
/// (`rus-ukr`, `ukr-rus`, `rus-bel`: apertium-tagger aborts in its perceptron model), a chain that
/// never answers (`hbs-mkd`: cg-proc writes dependency tags the next stages cannot read, and
/// lt-proc swallows the NUL that ends the request), a stage that cannot start. The probe's own
/// pipeline keeps its stages' stderr in a file, so the reason quotes what the stage said.
struct PairProbe: Sendable {
    /// How a pipeline of the mode is started, given where its stderr goes.
    typealias Start = @Sendable (_ stderr: String) throws -> ApertiumPipeline

    /// Longest the pipeline may take to load (answer an empty request). Default: 30 seconds.
    var loadTimeout: Duration = .seconds(30)
    /// Longest the loaded pipeline may take to answer the probe passage, a few milliseconds'
    /// work: far past it, the chain is hung. Default: 10 seconds.
    var answerTimeout: Duration = .seconds(10)

    /// Why `mode` does not work, or nil when it translated the probe passage.
    func run(_ mode: ApertiumMode, start: @escaping Start) async -> String? {
        let log = FileManager.default.temporaryDirectory
            .appendingPathComponent("glossa-probe-\(mode.name)-\(UInt32.random(in: 0...UInt32.max)).log").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let pipeline: ApertiumPipeline
        do {
            pipeline = try await offPool { try start(log) }
        } catch {
            return "its pipeline could not start: \((error as? TranslationError)?.message ?? "\(error)")"
        }
        defer { pipeline.terminate() }
        let text = ProbeTexts.text(for: mode.pair.source)
        if let failure = await answer(pipeline, [UInt8](".[]".utf8), within: loadTimeout, what: "an empty request") {
            return failure + Self.said(log)
        }
        if let failure = await answer(pipeline, Array(text.utf8), within: answerTimeout, what: "a test sentence") {
            return failure + Self.said(log) + "; to see it: echo '\(text.prefix(40))' | apertium \(mode.name)"
        }
        return nil
    }

    /// Sends one request; nil when a non-empty answer came back within `limit`.
    private func answer(_ pipeline: ApertiumPipeline, _ request: [UInt8], within limit: Duration, what: String) async -> String? {
        let timedOut = Flag()
        let watchdog = Task {
            try await Task.sleep(for: limit)
            timedOut.set()
            pipeline.terminate()
        }
        defer { watchdog.cancel() }
        do {
            let output = try await pipeline.run([request]) {}
            if output.first?.isEmpty ?? true { return "its pipeline gave an empty answer to \(what)" }
            return nil
        } catch {
            if timedOut.isSet { return "its pipeline gave no answer to \(what) within \(limit.components.seconds) s (a stage hangs)" }
            // "The Apertium pipeline for rus-ukr lost its request framing (…)." → "lost its …"
            var message = (error as? TranslationError)?.message ?? "\(error)"
            if let range = message.range(of: "The Apertium pipeline for \(pipeline.label) ") { message.removeSubrange(range) }
            if message.hasSuffix(".") { message.removeLast() }
            return "its pipeline broke on \(what): it \(message)"
        }
    }

    /// `: <what the stages wrote on stderr>`, last lines first trimmed to a sentence's length; or
    /// nothing when they wrote nothing.
    static func said(_ log: String) -> String {
        guard let data = FileManager.default.contents(atPath: log) else { return "" }
        let lines = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !lines.isEmpty else { return "" }
        var text = lines.suffix(3).joined(separator: " / ")
        if text.count > 300 { text = String(text.prefix(300)) + "…" }
        return "; its stages said: \(text)"
    }
}

/// A flag one task sets and another reads.
private final class Flag: Sendable {
    private let state = Mutex(false)
    func set() { state.withLock { $0 = true } }
    var isSet: Bool { state.withLock { $0 } }
}

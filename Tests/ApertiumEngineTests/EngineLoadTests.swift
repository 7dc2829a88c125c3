import Foundation
import Testing
import TranslationTesting
import TranslationCore
@testable import ApertiumEngine

/// Large input and failure under load, with the real eng-spa pipeline.
@Suite(.serialized, Requirement.apertium("eng-spa")) struct EngineLoadTests {
    static let engSpa = EngineIntegrationTests.engSpa

    /// `count` paragraphs, each opening with its own number, separated by empty lines.
    static func numberedParagraphs(count: Int, sentences: Int) -> String {
        let body = String(repeating: "The cat sleeps on the warm chair near the window. ", count: sentences)
        return (0..<count).map { "Paragraph \($0): \(body)" }.joined(separator: "\n\n")
    }

    /// The paragraph numbers found in a translation, in order.
    static func numbers(in translation: String) -> [Int] {
        translation.components(separatedBy: "\n\n").compactMap { paragraph in
            paragraph.firstMatch(of: /^Párrafo (\d+):/).flatMap { Int($0.output.1) }
        }
    }

    @Test func oneMegabyteComesBackWhole() async throws {
        try await EngineIntegrationTests.withEngine { engine in
            let text = Self.numberedParagraphs(count: 2600, sentences: 8)
            #expect(text.utf8.count > 1_000_000)
            let out = try await engine.translate([text], pair: Self.engSpa, options: TranslationOptions())[0]
            // Every paragraph, in order, with its number: no chunk missing, none repeated.
            #expect(Self.numbers(in: out) == Array(0..<2600))
            #expect(out.components(separatedBy: "\n\n").count == 2600)
            #expect(out.components(separatedBy: "silla tibia").count - 1 == 2600 * 8)
        }
    }

    /// Callers that wait while the pool is busy are merged into one request; when every one of
    /// them has gone (their clients hung up), that request's pipeline is stopped at once instead
    /// of translating for nobody.
    @Test func aMergedRequestWhoseCallersAllLeftIsStopped() async throws {
        try await EngineIntegrationTests.withEngine(.init(maxPipelines: 1)) { engine in
            let text = Self.numberedParagraphs(count: 800, sentences: 8)
            let options = TranslationOptions()
            let first = Task { try await engine.translate([text], pair: Self.engSpa, options: options) }
            let firstPipeline: [[Int32]] = try await firstValue { let p = await engine.pipelinePIDs(for: Self.engSpa); return p.isEmpty ? nil : p } ?? []
            try await Task.sleep(for: .milliseconds(500))
            // These two wait behind the first, then go out merged on the slot it frees.
            let waiters = [Task { try await engine.translate([text], pair: Self.engSpa, options: options) },
                           Task { try await engine.translate([text + " Bye."], pair: Self.engSpa, options: options) }]
            try await Task.sleep(for: .milliseconds(500))
            first.cancel()
            let mergedPipeline: [[Int32]] = try await firstValue { let p = await engine.pipelinePIDs(for: Self.engSpa); return p.isEmpty || p == firstPipeline ? nil : p } ?? []
            try await Task.sleep(for: .milliseconds(500))
            waiters.forEach { $0.cancel() }
            for waiter in waiters {
                let answered = (try? await waiter.value) != nil
                #expect(!answered, "a cancelled caller got its translation instead of .cancelled")
            }
            // The merged request's pipeline is stopped (a fresh one replaces it), long before
            // two 300 KB translations could have finished on it.
            let stopped = try await eventually(within: .seconds(10)) { await engine.pipelinePIDs(for: Self.engSpa) != mergedPipeline }
            #expect(stopped, "the merged request went on after all its callers had left")
        }
    }

    /// A client that hangs up on a short request does not cost a pipeline restart: the request
    /// finishes on its warm pipeline for nobody, which then answers the next caller, exactly.
    @Test func aShortRequestWhoseCallerLeftKeepsItsWarmPipelineInStep() async throws {
        try await EngineIntegrationTests.withEngine(.init(maxPipelines: 1)) { engine in
            let text = Self.numberedParagraphs(count: 30, sentences: 8)
            #expect(text.utf8.count < PipelinePool<ApertiumPipeline>.smallRequestBytes - 1024)
            let options = TranslationOptions()
            let reference = try await engine.translate([text], pair: Self.engSpa, options: options)
            let warm = await engine.pipelinePIDs(for: Self.engSpa)
            let leaving = Task { try await engine.translate([text], pair: Self.engSpa, options: options) }
            try await Task.sleep(for: .milliseconds(50))
            leaving.cancel()
            let answered = (try? await leaving.value) != nil
            #expect(!answered, "the caller left after 50 ms of a translation that takes several times that")
            #expect(try await engine.translate([text], pair: Self.engSpa, options: options) == reference)
            #expect(await engine.pipelinePIDs(for: Self.engSpa) == warm, "the pipeline was restarted")
        }
    }

    /// A warm pipeline is not replaced for the number of requests it served: each replacement
    /// costs its stages' start-up on the same cores and stalled the requests around it (a
    /// pipeline was restarted every 1,000 requests, every 3 s at 300 requests/s).
    @Test func aWarmPipelineServesThousandsOfRequestsWithoutARestart() async throws {
        try await EngineIntegrationTests.withEngine(.init(maxPipelines: 1)) { engine in
            let options = TranslationOptions()
            let reference = try await engine.translate(["The cat sleeps."], pair: Self.engSpa, options: options)
            let warm = await engine.pipelinePIDs(for: Self.engSpa)
            try #require(!warm.isEmpty, "no warm pipeline after the first request")
            for i in 0..<1500 {
                let out = try await engine.translate(["The cat sleeps."], pair: Self.engSpa, options: options)
                if out != reference { Issue.record("request \(i) answered \(out), not \(reference)"); break }
            }
            #expect(await engine.pipelinePIDs(for: Self.engSpa) == warm, "the pipeline was replaced")
        }
    }

    /// A stage that dies while the stages before it wait for input (as apertium-tagger segfaults
    /// on some pairs' input) fails the request within seconds, not at its deadline: here a `sed`
    /// stage after eng-spa's analyser quits on one word.
    @Test func aStageThatDiesWhileTheOthersWaitFailsTheRequestAtOnce() async throws {
        let analyser = "/usr/share/apertium/apertium-eng-spa/eng-spa.automorf.bin"
        try #require(FileManager.default.fileExists(atPath: analyser), "Apertium eng-spa is not installed (make deps-test)")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("glossa-dying-stage-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "lt-proc '\(analyser)' | sed -u -z -e '/Zorblax/Q5'\n".write(to: directory.appendingPathComponent("eng-spa.mode"), atomically: true, encoding: .utf8)
        var configuration = ApertiumEngine.Configuration(modeDirectories: [directory], requestTimeout: .seconds(25))
        configuration.probeCache = nil
        let engine = ApertiumEngine(configuration: configuration)
        let options = TranslationOptions(format: .text)
        do {
            #expect(try await !engine.translate(["The house."], pair: Self.engSpa, options: options)[0].isEmpty)
            let start = ContinuousClock.now
            let failed = (try? await engine.translate(["The Zorblax house."], pair: Self.engSpa, options: options)) == nil
            let waited = ContinuousClock.now - start
            #expect(failed)
            // Both tries (the request and its retry on a fresh pipeline) end within seconds.
            #expect(waited < .seconds(12), "the request waited \(waited) for a pipeline whose stage had died")
            #expect(try await !engine.translate(["The house."], pair: Self.engSpa, options: options)[0].isEmpty)
        } catch {
            await engine.shutdown()
            throw error
        }
        await engine.shutdown()
    }

    @Test func killingAStageMidLoadLosesNoRequest() async throws {
        try await EngineIntegrationTests.withEngine(.init(maxPipelines: 2)) { engine in
            try await engine.prewarm([Self.engSpa])
            let inputs = (0..<40).map { Self.numberedParagraphs(count: 20, sentences: 6).replacingOccurrences(of: "Paragraph 0:", with: "Paragraph \(1000 + $0):") }
            let victim = try #require(await engine.pipelinePIDs(for: Self.engSpa).first?.dropFirst(3).first,
                                      "no pipeline stage to kill")
            try await withThrowingTaskGroup(of: (Int, String).self) { group in
                for (i, input) in inputs.enumerated() {
                    group.addTask { (i, try await engine.translate([input], pair: Self.engSpa, options: TranslationOptions())[0]) }
                }
                // Kill a stage of one pipeline while requests are in flight.
                try await Task.sleep(for: .milliseconds(300))
                #expect(kill(victim, SIGKILL) == 0)
                var done = 0
                for try await (i, out) in group {
                    #expect(Self.numbers(in: out) == [1000 + i] + Array(1..<20))
                    done += 1
                }
                #expect(done == 40)
            }
            #expect(!(await engine.pipelinePIDs(for: Self.engSpa).joined().contains(victim)))
        }
    }

    @Test func shutdownStopsEveryProcess() async throws {
        let engine = ApertiumEngine(configuration: .init(minPipelines: 2))
        try #require(await engine.pairs().contains(Self.engSpa), "Apertium eng-spa is not installed")
        try await engine.prewarm([Self.engSpa])
        _ = try await engine.translate(["Hello"], pair: Self.engSpa, options: TranslationOptions())
        let pids = await engine.pipelinePIDs(for: Self.engSpa).joined()
        #expect(pids.count >= 10)
        await engine.shutdown()
        var alive = pids.filter { FileManager.default.fileExists(atPath: "/proc/\($0)") }
        for _ in 0..<50 where !alive.isEmpty {
            try await Task.sleep(for: .milliseconds(100))
            alive = pids.filter { isLive($0) }
        }
        #expect(alive.isEmpty, "still running: \(alive)")
        await #expect(throws: TranslationError.self) {
            try await engine.translate(["Hello"], pair: Self.engSpa, options: TranslationOptions())
        }
    }

    /// A process that exists and is not a zombie.
    func isLive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return !stat[stat.index(after: close)...].hasPrefix(" Z")
    }
}

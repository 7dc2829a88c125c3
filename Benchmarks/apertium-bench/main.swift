// Words per second through ApertiumEngine against the raw `apertium PAIR` command on the same
// text, in the same run, alternating so machine load affects both alike.
// Usage: apertium-bench [FILE] [REPEAT] [ROUNDS] [CHUNK_SIZE]
//        (FILE defaults to FLORES-200 dev English, REPEAT 5, ROUNDS 3, CHUNK_SIZE the engine's default)
import ApertiumEngine
@_spi(Benchmark) import ApertiumEngine
import Foundation
import TranslationCore

let arguments = CommandLine.arguments
// The default is ../shared beside the repository (run from the repository root, as `make bench` does).
let file = arguments.count > 1 ? arguments[1]
    : FileManager.default.currentDirectoryPath + "/../shared/data/flores200-dev/eng_Latn.dev"
let repeatCount = arguments.count > 2 ? Int(arguments[2]) ?? 5 : 5
let rounds = max(1, arguments.count > 3 ? Int(arguments[3]) ?? 3 : 3)
let chunkSize = arguments.count > 4 ? Int(arguments[4]) ?? ApertiumEngine.Configuration().chunkSize : ApertiumEngine.Configuration().chunkSize
let pair = LanguagePair(source: "en", target: "es")

guard let base = try? String(contentsOfFile: file, encoding: .utf8) else {
    FileHandle.standardError.write(Data("apertium-bench: cannot read \(file)\n".utf8))
    exit(2)
}
let text = String(repeating: base.hasSuffix("\n") ? base : base + "\n", count: repeatCount)
let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).count
let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
let input = FileManager.default.temporaryDirectory.appendingPathComponent("apertium-bench-\(getpid()).txt")
try Data(text.utf8).write(to: input)
defer { try? FileManager.default.removeItem(at: input) }

/// CPU seconds (user + system) that `pids` have used so far, from /proc.
func cpuSeconds(of pids: [Int32]) -> Double {
    let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
    return pids.reduce(0) { sum, pid in
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return sum }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After "(comm)": state is field 0, utime 11, stime 12.
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return sum }
        return sum + (user + system) / ticks
    }
}

/// CPU seconds used by this process, or by its reaped children.
func cpuSeconds(_ who: Int32) -> Double {
    var usage = rusage()
    getrusage(who, &usage)
    let t = { (tv: timeval) in Double(tv.tv_sec) + Double(tv.tv_usec) / 1e6 }
    return t(usage.ru_utime) + t(usage.ru_stime)
}

/// Seconds for the raw command, from start-up to the last output byte.
func raw() throws -> Double {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/apertium")
    process.arguments = [pair.apertiumName]
    process.standardInput = try FileHandle(forReadingFrom: input)
    process.standardOutput = FileHandle.nullDevice
    let start = ContinuousClock.now
    try process.run()
    process.waitUntilExit()
    return (ContinuousClock.now - start).seconds
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

// Glossa's own work per input (deformat, chunk, reformat), to tell it apart from Apertium's.
do {
    let start = ContinuousClock.now
    let probe = ApertiumFormatProbe.roundTrip(text, format: .text, chunkSize: chunkSize)
    precondition(probe.text == text)
    print(String(format: "glossa-side work (deformat + chunk + reformat): %.3f s for %d chunks",
                 (ContinuousClock.now - start).seconds, probe.chunks))
}

let coldStart = ContinuousClock.now
let engine = ApertiumEngine(configuration: .init(maxPipelines: 1, chunkSize: chunkSize))
let first = try await engine.translate(["Hello world."], pair: pair, options: TranslationOptions())
print(String(format: "start-up to the first translation (%@): %.3f s", first[0], (ContinuousClock.now - coldStart).seconds))
do {
    let start = ContinuousClock.now
    _ = try await engine.translate(["Good morning."], pair: pair, options: TranslationOptions())
    print(String(format: "one short sentence on the warm pipeline: %.4f s", (ContinuousClock.now - start).seconds))
}
print("text: \(file) ×\(repeatCount): \(words) words, \(text.utf8.count) bytes, \(lines.count) lines; chunk size \(chunkSize)")
var results: [String: [Double]] = [:]
var cpu: [String: [Double]] = [:]
let pids = await engine.pipelinePIDs(for: pair).joined().map { $0 }
/// CPU seconds of the engine: its pipeline's processes plus this process.
func engineCPU() -> Double { cpuSeconds(of: pids) + cpuSeconds(Int32(RUSAGE_SELF.rawValue)) }
for round in 1...rounds {
    var c0 = cpuSeconds(Int32(RUSAGE_CHILDREN.rawValue))
    let r = try raw()
    cpu["raw apertium", default: []].append(cpuSeconds(Int32(RUSAGE_CHILDREN.rawValue)) - c0)
    var start = ContinuousClock.now
    c0 = engineCPU()
    let one = try await engine.translate([text], pair: pair, options: TranslationOptions())
    let e1 = (ContinuousClock.now - start).seconds
    cpu["engine, one text", default: []].append(engineCPU() - c0)
    start = ContinuousClock.now
    c0 = engineCPU()
    let many = try await engine.translate(lines, pair: pair, options: TranslationOptions())
    let e2 = (ContinuousClock.now - start).seconds
    cpu["engine, batch of lines", default: []].append(engineCPU() - c0)
    precondition(one[0].split(separator: "\n", omittingEmptySubsequences: false).count == lines.count && many.count == lines.count)
    for (name, seconds) in [("raw apertium", r), ("engine, one text", e1), ("engine, batch of lines", e2)] {
        results[name, default: []].append(Double(words) / seconds)
        print(String(format: "round %d  %@ %8.0f words/s  (%.2f s)", round, name.padding(toLength: 24, withPad: " ", startingAt: 0), Double(words) / seconds, seconds))
    }
}
let best = results.mapValues { $0.max()! }
let rawBest = best["raw apertium"]!
let medianCPU = cpu.mapValues { $0.sorted()[$0.count / 2] }
for name in ["raw apertium", "engine, one text", "engine, batch of lines"] {
    print(String(format: "best  %@ %8.0f words/s  %5.1f%% of raw;  CPU %.2f s (median), %5.1f%% of raw's",
                 name.padding(toLength: 24, withPad: " ", startingAt: 0), best[name]!, 100 * best[name]! / rawBest,
                 medianCPU[name]!, 100 * medianCPU[name]! / medianCPU["raw apertium"]!))
}
await engine.shutdown()

import Foundation
import LanguageDetection
import TranslationCore

// Accuracy of Glossa's detector per language and text length, as lingua's accuracy reports
// measure it, on a test set given by path:
//
//   detect-accuracy TESTDATA_DIR [--reports DIR] [--systems glossa,cld2] [--only en,fr,…] [--limit N]
//                   [--weights traffic.tsv]
//
// TESTDATA_DIR holds one folder per language, named by its BCP-47 code, with single-words.txt,
// word-pairs.txt and sentences.txt (one item a line; `make detect-testdata` writes FLORES-200 dev
// lines 801-997 so). Writes DIR/<system>/<code>.txt in lingua's report format and prints, per
// system, a Markdown table (per language and the mean over languages), the calibration of the
// confidence and the speed (texts per second of one thread's CPU time), then one `SUMMARY` line
// per system for scripts. With --weights (tests/tools/detector-model/traffic.tsv: code, share of
// online text; `*` for the rest) it also prints the traffic-weighted figures: each language's
// accuracy weighted by its share, normalized over the languages of the test set, which is what
// a translation service's users see beside the mean over languages (lingua's protocol).
// Exits 1 with a message when the data is missing.

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("detect-accuracy: \(message)\n".utf8))
    exit(1)
}

var positional: [String] = []
var options: [String: String] = [:]
var argumentIterator = CommandLine.arguments.dropFirst().makeIterator()
while let argument = argumentIterator.next() {
    if argument.hasPrefix("--") {
        guard let value = argumentIterator.next() else { fail("\(argument) needs a value") }
        options[String(argument.dropFirst(2))] = value
    } else {
        positional.append(argument)
    }
}
guard positional.count == 1 else {
    fail("usage: detect-accuracy TESTDATA_DIR [--reports DIR] [--systems glossa,cld2] [--only CODES] [--limit N]")
}
let root = positional[0]
let limit = Int(options["limit"] ?? "") ?? .max
let only = options["only"].map { Set($0.split(separator: ",").map(String.init)) }
let kinds = ["single-words", "word-pairs", "sentences"]
let kindNames = ["single words", "word pairs", "sentences"]

guard let entries = try? FileManager.default.contentsOfDirectory(atPath: root) else {
    fail("no test data at \(root): run `make detect-testdata`, or give a folder of <code>/{single-words,word-pairs,sentences}.txt")
}
var languages: [(code: LanguageCode, folder: String, items: [[String]])] = []
for entry in entries.sorted() where only?.contains(entry) ?? true {
    guard let code = try? LanguageCode(parsing: entry),
          kinds.allSatisfy({ FileManager.default.fileExists(atPath: "\(root)/\(entry)/\($0).txt") }) else { continue }
    let items = kinds.map { kind in
        Array(((try? String(contentsOfFile: "\(root)/\(entry)/\(kind).txt", encoding: .utf8)) ?? "")
            .split(separator: "\n").map(String.init).filter { !$0.isEmpty }.prefix(limit))
    }
    languages.append((code, entry, items))
}
guard !languages.isEmpty else { fail("\(root) has no <code>/{single-words,word-pairs,sentences}.txt folders") }

/// Each test language's share of online text, normalized over the test set (empty: no --weights).
let trafficShares: [Double] = {
    guard let path = options["weights"] else { return [] }
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { fail("cannot read --weights \(path)") }
    var share: [String: Double] = [:]
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
        let fields = line.split(separator: "\t")
        guard fields.count == 2, let value = Double(fields[1]) else { fail("\(path): bad line \(line)") }
        share[String(fields[0])] = value
    }
    guard let floor = share["*"] else { fail("\(path) has no * row (the share of unlisted languages)") }
    let values = languages.map { max(floor, share[$0.folder] ?? floor) }
    let total = values.reduce(0, +)
    return values.map { $0 / total }
}()

let glossa = GlossaDetector()
let systems: [(name: String, detect: (String) -> Detection)] = (options["systems"] ?? "glossa").split(separator: ",").map { name in
    switch name {
    case "glossa": return ("glossa", { glossa.detection(for: $0, hint: nil) })
    case "cld2": return ("cld2", { GlossaDetector.cld2BestEffort($0) })
    default: fail("unknown system \(name) (glossa, cld2)")
    }
}

/// FNV-1a over the bits of detections.
struct DetectionDigest {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325
    private mutating func add(_ bits: UInt64) { value = (value ^ bits) &* 0x0000_0100_0000_01B3 }
    mutating func add(_ detection: Detection) {
        for byte in (detection.language?.description ?? "und").utf8 { add(UInt64(byte)) }
        add(detection.confidence.bitPattern)
        add(detection.isReliable ? 1 : 0)
        for alternative in detection.alternatives {
            for byte in alternative.language.description.utf8 { add(UInt64(byte)) }
            add(alternative.confidence.bitPattern)
        }
    }
}

func isCorrect(_ detection: Detection, _ expected: LanguageCode) -> Bool {
    guard let language = detection.language else { return false }
    return language.language == expected.language && (expected.script == nil || language.script == expected.script)
}

/// This thread's CPU time in seconds: the speed figure holds on a loaded machine too (wall time
/// there mostly measures the other processes).
func threadCPUTime() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

// Load the model before timing (the first detection decodes the embedded model once).
_ = glossa.detection(for: "warm-up", hint: nil)
var summaries: [String] = []
for system in systems {
    var table = "| language | single words | word pairs | sentences | mean |\n|---|---:|---:|---:|---:|\n"
    var sums = [Double](repeating: 0, count: 3)
    var weightedSums = [Double](repeating: 0, count: 3)
    var bins = [(answers: Int, right: Int)](repeating: (0, 0), count: 10)
    var reliable = (answers: 0, wrong: 0), confident = (answers: 0, right: 0)
    var texts = 0
    var elapsed = 0.0
    var digest = DetectionDigest()
    for (languageIndex, (expected, folder, items)) in languages.enumerated() {
        var accuracies: [Double] = []
        var report = ""
        for (kindIndex, kindItems) in items.enumerated() {
            var right = 0, characters = 0
            var wrongAs: [String: Int] = [:]
            var detections: [Detection] = []
            detections.reserveCapacity(kindItems.count)
            let start = threadCPUTime()
            for item in kindItems { detections.append(system.detect(item)) }
            elapsed += threadCPUTime() - start
            texts += kindItems.count
            for (item, detection) in zip(kindItems, detections) {
                digest.add(detection)
                characters += item.count
                let ok = isCorrect(detection, expected)
                if ok { right += 1 } else { wrongAs[detection.language?.description ?? "und", default: 0] += 1 }
                guard detection.language != nil else { continue }
                let bin = min(9, Int(detection.confidence * 10))
                bins[bin].answers += 1
                if ok { bins[bin].right += 1 }
                if detection.isReliable { reliable.answers += 1; if !ok { reliable.wrong += 1 } }
                if detection.confidence >= 0.9 { confident.answers += 1; if ok { confident.right += 1 } }
            }
            let accuracy = kindItems.isEmpty ? 0 : 100 * Double(right) / Double(kindItems.count)
            accuracies.append(accuracy)
            sums[kindIndex] += accuracy
            if !trafficShares.isEmpty { weightedSums[kindIndex] += accuracy * trafficShares[languageIndex] }
            report += ">> Detection of \(kindItems.count) \(kindNames[kindIndex]) (average length: \(kindItems.isEmpty ? 0 : characters / kindItems.count) chars)\n"
            report += String(format: "Accuracy: %.1f%%\n", accuracy)
            let errors = wrongAs.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
                .map { String(format: "%@: %.1f%%", $0.key, 100 * Double($0.value) / Double(max(1, kindItems.count))) }
            report += "Erroneously classified as " + (errors.isEmpty ? "nothing" : errors.joined(separator: ", ")) + "\n\n"
        }
        let mean = accuracies.reduce(0, +) / 3
        table += "| \(folder) | " + accuracies.map { String(format: "%.1f", $0) }.joined(separator: " | ") + String(format: " | %.1f |\n", mean)
        if let directory = options["reports"] {
            let path = "\(directory)/\(system.name)"
            try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            let text = "##### \(folder) #####\n\n" + String(format: ">>> Accuracy on average: %.1f%%\n\n", mean) + report
            try? Data(text.utf8).write(to: URL(fileURLWithPath: "\(path)/\(folder).txt"))
        }
    }
    let count = Double(languages.count)
    let means = sums.map { $0 / count }
    table += "| **mean of \(languages.count)** | " + means.map { String(format: "**%.1f**", $0) }.joined(separator: " | ")
        + String(format: " | **%.1f** |\n", means.reduce(0, +) / 3)
    let seconds = elapsed
    if !trafficShares.isEmpty {
        table += "| **traffic-weighted** | " + weightedSums.map { String(format: "**%.1f**", $0) }.joined(separator: " | ")
            + String(format: " | **%.1f** |\n", weightedSums.reduce(0, +) / 3)
    }
    print("## \(system.name)\n\n" + table)
    print("Confidence calibration (all items): confidence range → answers, % right")
    for (index, bin) in bins.enumerated() where bin.answers > 0 {
        print(String(format: "  %.1f-%.1f: %6d answers, %5.1f%% right", Double(index) / 10, Double(index + 1) / 10,
                     bin.answers, 100 * Double(bin.right) / Double(bin.answers)))
    }
    let confidentRight = 100 * Double(confident.right) / Double(max(1, confident.answers))
    let reliableWrong = 100 * Double(reliable.wrong) / Double(max(1, reliable.answers))
    print(String(format: "Confidence ≥ 0.9: %d answers, %.2f%% right; isReliable: %d answers, %.2f%% wrong",
                 confident.answers, confidentRight, reliable.answers, reliableWrong))
    print(String(format: "Speed: %d texts in %.2f s of one thread's CPU time, %.0f texts/s\n", texts, seconds, Double(texts) / seconds))
    // Every answer's bits (language, confidence, reliability, alternatives), so that a change
    // meant to keep the answers (speed work) can show it did: the same digest before and after.
    print("DIGEST \(system.name) \(String(digest.value, radix: 16))")
    summaries.append(String(format: "SUMMARY %@ languages=%d single=%.2f pairs=%.2f sentences=%.2f texts_per_s=%.0f confident_right=%.2f reliable_wrong=%.2f",
                            system.name, languages.count, means[0], means[1], means[2], Double(texts) / seconds, confidentRight, reliableWrong)
        + (trafficShares.isEmpty ? "" : String(format: " traffic_single=%.2f traffic_pairs=%.2f traffic_sentences=%.2f",
                                               weightedSums[0], weightedSums[1], weightedSums[2])))
}
var usage = rusage()
getrusage(RUSAGE_SELF.rawValue, &usage)
print("Glossa model in memory: \(glossa.model.modelMemoryBytes) bytes; this process's peak resident memory: \(usage.ru_maxrss * 1024) bytes")
summaries.forEach { print($0) }

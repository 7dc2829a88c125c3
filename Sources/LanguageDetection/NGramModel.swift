import Foundation
import TranslationCore

/// Namespace of the generated profile data (see `NGramProfiles+Data.swift`).
enum NGramProfiles {}

/// A naive Bayes language model over character n-grams (``NGramFeatures``), built from
/// per-language n-gram counts. Immutable once built, so one instance is shared by every thread.
///
/// Each language's probability of an n-gram is its add-α smoothed relative frequency;
/// n-grams outside a language's kept top list get the smoothing mass only. The approach is
/// the classic one of langid.py and Cavnar & Trenkle's n-gram profiles, scored as log-likelihoods.
struct NGramModel: Sendable {
    /// The languages, in column order.
    let languages: [LanguageCode]
    /// The scripts each language is written in (from its profile's script subtag).
    let scripts: [[WritingScript]]
    /// n-gram → row index into ``logProbabilities``.
    private let rows: [String: Int]
    /// Row-major matrix: `rows.count` × `languages.count` log-probabilities. One dense row per
    /// n-gram makes scoring one dictionary lookup and a vector add per n-gram.
    private let logProbabilities: [Float]

    /// Add-α smoothing constant.
    static let alpha: Double = 0.5
    /// Letters scored at most; the model serves short or unreliable text, and a bound keeps
    /// its cost flat on a long input that reaches it.
    static let letterLimit = 2048

    /// The model of the committed FLORES-200 profiles, parsed on first use (Swift runs a
    /// static initializer once, thread-safely).
    static let shared: NGramModel = {
        do { return try NGramModel(serialized: NGramProfiles.serialized) } catch {
            // The data is generated and compiled in; failing to parse it is a build defect.
            preconditionFailure("NGramProfiles+Data.swift is malformed: \(error)")
        }
    }()

    /// Parses the format written by tests/tools/detector-profiles:
    /// `@<BCP-47> <script> <total>` lines, each followed by `gram:count` entries.
    /// - Throws: ``TranslationError`` when a line is malformed.
    init(serialized: String) throws {
        var languages: [LanguageCode] = []
        var scripts: [[WritingScript]] = []
        var totals: [Double] = []
        var counts: [[String: Int]] = []
        for line in serialized.split(separator: "\n") {
            if line.hasPrefix("@") {
                let parts = line.dropFirst().split(separator: " ")
                guard parts.count == 3, let total = Double(parts[2]) else { throw Self.malformed(line) }
                languages.append(try LanguageCode(parsing: String(parts[0])))
                scripts.append(WritingScript.covered(bySubtag: String(parts[1])))
                totals.append(total)
                counts.append([:])
                continue
            }
            guard !counts.isEmpty else { throw Self.malformed(line) }
            for entry in line.split(separator: " ") {
                guard let colon = entry.lastIndex(of: ":"), let count = Int(entry[entry.index(after: colon)...]) else {
                    throw Self.malformed(line)
                }
                counts[counts.count - 1][String(entry[..<colon])] = count
            }
        }
        var rows: [String: Int] = [:]
        for table in counts { for gram in table.keys where rows[gram] == nil { rows[gram] = rows.count } }
        let vocabulary = Double(rows.count)
        let width = languages.count
        let denominators = totals.map { log($0 + Self.alpha * vocabulary) }
        // Every cell starts as "unseen in this language", then each profile fills its own grams.
        var matrix = [Float](repeating: 0, count: rows.count * width)
        for row in 0..<rows.count {
            for column in 0..<width { matrix[row * width + column] = Float(log(Self.alpha) - denominators[column]) }
        }
        for (column, table) in counts.enumerated() {
            for (gram, count) in table {
                matrix[rows[gram]! * width + column] = Float(log(Double(count) + Self.alpha) - denominators[column])
            }
        }
        self.languages = languages
        self.scripts = scripts
        self.rows = rows
        self.logProbabilities = matrix
    }

    /// Log-likelihood of `text` under each language (column order) and the number of n-grams
    /// that counted. N-grams that no profile knows are skipped: they favour no language.
    func scores(_ text: String) -> (scores: [Double], grams: Int) {
        let width = languages.count
        var sums = [Float](repeating: 0, count: width)
        var grams = 0
        logProbabilities.withUnsafeBufferPointer { matrix in
            NGramFeatures.forEach(in: text, letterLimit: Self.letterLimit) { gram in
                guard let row = rows[gram] else { return }
                grams += 1
                let base = row * width
                for column in 0..<width { sums[column] += matrix[base + column] }
            }
        }
        return (sums.map(Double.init), grams)
    }

    private static func malformed(_ line: Substring) -> TranslationError {
        TranslationError(.engineFailure, "n-gram profile line is malformed: \(line.prefix(60))")
    }
}

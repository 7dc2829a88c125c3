/// Finds a glossary's source terms in text (the rules are ``Glossary``'s), in one pass over the
/// text's words: each word start looks up the terms whose first word it is.
struct GlossaryMatcher: Sendable {
    /// One spelling of a term to look for.
    struct Candidate: Sendable {
        /// The spelling, UTF-8.
        let bytes: [UInt8]
        /// Lower-cased, when case is ignored.
        let lowered: String?
        /// What replaces it.
        let target: String
        /// Bytes before the term's first word (a term such as `.NET`).
        let lead: Int
        /// Whether the term ends in a word character, so the text must not go on with one.
        let needsEndBoundary: Bool
    }

    /// Candidates by their first word, lower-cased; longest first.
    private let index: [String: [Candidate]]
    private let ignoresCase: Bool

    init(entries: [GlossaryEntry], ignoresCase: Bool) {
        self.ignoresCase = ignoresCase
        var index: [String: [Candidate]] = [:]
        for entry in entries {
            for (spelling, target) in Self.spellings(entry, ignoresCase: ignoresCase) {
                let bytes = Array(spelling.utf8)
                guard let first = WordScanner.words(in: bytes).first else { continue }
                let key = String(decoding: bytes[first], as: UTF8.self).lowercased()
                let last = WordScanner.lastScalar(of: bytes)
                let candidate = Candidate(bytes: bytes, lowered: ignoresCase ? spelling.lowercased() : nil, target: target,
                                          lead: first.lowerBound,
                                          needsEndBoundary: last.map { WordScanner.isWordScalar($0) && !WordScanner.isUnspacedScript($0) } ?? false)
                index[key, default: []].append(candidate)
            }
        }
        self.index = index.mapValues { $0.sorted { $0.bytes.count > $1.bytes.count } }
    }

    /// The spellings an entry matches: as written, and capitalised when it starts in lower case
    /// (the start of a sentence), unless case is ignored anyway.
    static func spellings(_ entry: GlossaryEntry, ignoresCase: Bool) -> [(String, String)] {
        var out = [(entry.source, entry.target)]
        guard !ignoresCase, let first = entry.source.first, first.isLowercase else { return out }
        let capitalised = first.uppercased() + entry.source.dropFirst()
        if capitalised != entry.source {
            out.append((capitalised, (entry.target.first.map { $0.uppercased() } ?? "") + entry.target.dropFirst()))
        }
        return out
    }

    func matches(in bytes: [UInt8]) -> [ProtectedSpan] {
        guard !index.isEmpty else { return [] }
        var out: [ProtectedSpan] = []
        var end = 0
        for word in WordScanner.words(in: bytes) {
            guard word.lowerBound >= end,
                  let candidates = index[String(decoding: bytes[word], as: UTF8.self).lowercased()] else { continue }
            for candidate in candidates {
                let start = word.lowerBound - candidate.lead
                let stop = start + candidate.bytes.count
                guard start >= end, stop <= bytes.count, spells(candidate, bytes[start..<stop]) else { continue }
                if candidate.needsEndBoundary, stop < bytes.count, let next = WordScanner.scalar(in: bytes, at: stop),
                   WordScanner.isWordScalar(next), !WordScanner.isUnspacedScript(next) { continue }
                out.append(ProtectedSpan(range: start..<stop, output: candidate.target))
                end = stop
                break
            }
        }
        return out
    }

    private func spells(_ candidate: Candidate, _ slice: ArraySlice<UInt8>) -> Bool {
        if let lowered = candidate.lowered { return String(decoding: slice, as: UTF8.self).lowercased() == lowered }
        return slice.elementsEqual(candidate.bytes)
    }
}

/// Words in UTF-8 text, as the glossary sees them: runs of letters, digits and combining marks;
/// in scripts written without spaces (Han, kana, Thai, …) every character is a word of its own,
/// so a term can start anywhere in them.
enum WordScanner {
    /// The byte ranges of the words in `bytes`.
    static func words(in bytes: [UInt8]) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var i = 0
        var start: Int?
        while i < bytes.count {
            let (scalar, length) = decode(bytes, at: i)
            if let scalar, isWordScalar(scalar) {
                if isUnspacedScript(scalar) {
                    if let s = start { out.append(s..<i); start = nil }
                    out.append(i..<(i + length))
                } else if start == nil {
                    start = i
                }
            } else if let s = start {
                out.append(s..<i)
                start = nil
            }
            i += length
        }
        if let s = start { out.append(s..<bytes.count) }
        return out
    }

    static func scalar(in bytes: [UInt8], at index: Int) -> Unicode.Scalar? { decode(bytes, at: index).0 }

    static func lastScalar(of bytes: [UInt8]) -> Unicode.Scalar? {
        String(decoding: bytes, as: UTF8.self).unicodeScalars.last
    }

    /// A letter, digit or combining mark.
    static func isWordScalar(_ s: Unicode.Scalar) -> Bool {
        if s.isASCII { return (s.value | 0x20 >= 0x61 && s.value | 0x20 <= 0x7A) || (s.value >= 0x30 && s.value <= 0x39) }
        let p = s.properties
        switch p.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber, .nonspacingMark, .spacingMark, .enclosingMark:
            return true
        default:
            return false
        }
    }

    /// Scripts whose words are not separated by spaces.
    static func isUnspacedScript(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x0E00...0x0EFF,   // Thai, Lao
             0x0F00...0x0FFF,   // Tibetan
             0x1000...0x109F,   // Myanmar
             0x1780...0x17FF,   // Khmer
             0x3040...0x30FF,   // Hiragana, Katakana
             0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3FFFF:  // Han
            return true
        default:
            return false
        }
    }

    /// The scalar starting at `i` and its length in bytes; nil (length 1) for a byte that starts
    /// no valid sequence.
    static func decode(_ bytes: [UInt8], at i: Int) -> (Unicode.Scalar?, Int) {
        let b = bytes[i]
        let length = b < 0x80 ? 1 : b >> 5 == 0b110 ? 2 : b >> 4 == 0b1110 ? 3 : b >> 3 == 0b11110 ? 4 : 1
        guard length > 1 else { return (b < 0x80 ? Unicode.Scalar(b) : nil, 1) }
        guard i + length <= bytes.count else { return (nil, 1) }
        var value = UInt32(b) & (0x7F >> UInt32(length))
        for k in 1..<length {
            let c = bytes[i + k]
            guard c & 0xC0 == 0x80 else { return (nil, 1) }
            value = value << 6 | UInt32(c & 0x3F)
        }
        return (Unicode.Scalar(value), length)
    }
}

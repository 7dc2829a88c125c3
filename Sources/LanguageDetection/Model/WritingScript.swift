
/// The writing systems the detector tells apart, by Unicode block.
///
/// Swift's standard library exposes no Script property, so this is a table of the blocks that
/// matter; anything else is `.other`. A text is scored only against the model's languages of its
/// dominant script; a script no model language uses falls to ``singleLanguage`` or CLD2.
enum WritingScript: String, CaseIterable, Sendable {
    case latin = "Latn", cyrillic = "Cyrl", greek = "Grek", arabic = "Arab", hebrew = "Hebr"
    case devanagari = "Deva", han = "Hani", hiragana = "Hira", katakana = "Kana", hangul = "Hang"
    case thai = "Thai", lao = "Laoo", khmer = "Khmr", myanmar = "Mymr", georgian = "Geor"
    case armenian = "Armn", ethiopic = "Ethi", bengali = "Beng", gurmukhi = "Guru"
    case gujarati = "Gujr", oriya = "Orya", tamil = "Taml", telugu = "Telu", kannada = "Knda"
    case malayalam = "Mlym", sinhala = "Sinh", tibetan = "Tibt", thaana = "Thaa", other = "Zyyy"

    /// The script of one letter or mark.
    init(of scalar: Unicode.Scalar) {
        switch scalar.value {
        case 0x41...0x5A, 0x61...0x7A, 0xC0...0x24F, 0x1E00...0x1EFF, 0x2C60...0x2C7F, 0xA720...0xA7FF,
             0xFF21...0xFF3A, 0xFF41...0xFF5A: self = .latin
        case 0x400...0x52F, 0x1C80...0x1C8F, 0x2DE0...0x2DFF, 0xA640...0xA69F: self = .cyrillic
        case 0x370...0x3FF, 0x1F00...0x1FFF: self = .greek
        case 0x590...0x5FF, 0xFB1D...0xFB4F: self = .hebrew
        case 0x600...0x6FF, 0x750...0x77F, 0x8A0...0x8FF, 0xFB50...0xFDFF, 0xFE70...0xFEFF: self = .arabic
        case 0x780...0x7BF: self = .thaana
        case 0x900...0x97F, 0xA8E0...0xA8FF: self = .devanagari
        case 0x980...0x9FF: self = .bengali
        case 0xA00...0xA7F: self = .gurmukhi
        case 0xA80...0xAFF: self = .gujarati
        case 0xB00...0xB7F: self = .oriya
        case 0xB80...0xBFF: self = .tamil
        case 0xC00...0xC7F: self = .telugu
        case 0xC80...0xCFF: self = .kannada
        case 0xD00...0xD7F: self = .malayalam
        case 0xD80...0xDFF: self = .sinhala
        case 0xE00...0xE7F: self = .thai
        case 0xE80...0xEFF: self = .lao
        case 0xF00...0xFFF: self = .tibetan
        case 0x1000...0x109F: self = .myanmar
        case 0x10A0...0x10FF, 0x2D00...0x2D2F, 0x1C90...0x1CBF: self = .georgian
        case 0x530...0x58F: self = .armenian
        case 0x1200...0x139F, 0x2D80...0x2DDF: self = .ethiopic
        case 0x1780...0x17FF, 0x19E0...0x19FF: self = .khmer
        case 0x1100...0x11FF, 0x3130...0x318F, 0xA960...0xA97F, 0xAC00...0xD7AF, 0xD7B0...0xD7FF,
             0xFFA0...0xFFDC: self = .hangul
        case 0x3040...0x309F: self = .hiragana
        case 0x30A0...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F: self = .katakana
        case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3FFFF: self = .han
        default: self = .other
        }
    }

    /// The scripts a FLORES-style script subtag covers (`Jpan` mixes Han and kana).
    static func covered(bySubtag subtag: String) -> [WritingScript] {
        switch subtag {
        case "Jpan": return [.han, .hiragana, .katakana]
        case "Hans", "Hant": return [.han]
        default: return WritingScript(rawValue: subtag).map { [$0] } ?? []
        }
    }
}

/// How many letters of each script a text has.
struct ScriptCensus: Sendable {
    /// The scripts seen, in order of first appearance, and their letter counts. A text has one
    /// or two scripts, so a scan beats hashing each letter's script into a dictionary.
    private var scripts: [WritingScript] = []
    private var tallies: [Int] = []
    /// All letters counted.
    private(set) var letters = 0

    /// Counts the letters of `text`, stopping after `limit` of them (enough to decide).
    /// Marks count by their own block (Devanagari vowel signs as Devanagari); generic combining
    /// marks (U+0300 accents in decomposed text) not at all.
    init(_ text: String, limit: Int = 512) {
        var last = -1
        for scalar in text.unicodeScalars where TextFeatures.isWordScalar(scalar) {
            let script = scalar.value < 0x80 ? .latin : WritingScript(of: scalar)
            if script == .other && !scalar.properties.isAlphabetic { continue }
            if last < 0 || scripts[last] != script {
                last = scripts.firstIndex(of: script) ?? -1
                if last < 0 {
                    scripts.append(script)
                    tallies.append(0)
                    last = scripts.count - 1
                }
            }
            tallies[last] += 1
            letters += 1
            if letters >= limit { break }
        }
    }

    /// Letter counts per script (the scripts the text has).
    var counts: [WritingScript: Int] { Dictionary(uniqueKeysWithValues: zip(scripts, tallies)) }

    /// The letters written in `script`.
    func count(of script: WritingScript) -> Int {
        scripts.firstIndex(of: script).map { tallies[$0] } ?? 0
    }

    /// The script with the most letters, nil when there are none; ties go to the earlier case.
    var dominant: WritingScript? {
        var best: (script: WritingScript, count: Int)?
        for script in WritingScript.allCases {
            let count = count(of: script)
            if count > (best?.count ?? 0) { best = (script, count) }
        }
        return best?.script
    }

    /// The share (0...1) of letters written in `script`.
    func share(of script: WritingScript) -> Double {
        letters == 0 ? 0 : Double(count(of: script)) / Double(letters)
    }
}

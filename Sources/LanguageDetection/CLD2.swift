import CCLD2Shim
import TranslationCore

/// CLD2 through the C shim: one synchronous call per text. CLD2 is thread-safe and keeps no
/// state between calls, so this is a stateless namespace.
enum CLD2 {
    /// One language CLD2 found, with its share of the text.
    struct Candidate: Equatable, Sendable {
        /// CLD2's code, as CLD2 spells it ("en", "zh-Hant", "iw").
        var code: String
        /// Share of the text's letters, 0...100.
        var percent: Int
        /// CLD2's score relative to normal text in that language (about 1.0 for real text).
        var normalizedScore: Double
    }

    /// What CLD2 says about one text.
    struct Result: Equatable, Sendable {
        /// Up to three languages, most likely first; CLD2's "un" (unknown) entries are left out.
        var candidates: [Candidate]
        /// Whether CLD2 considers the first candidate reliable.
        var isReliable: Bool
        /// Letter bytes CLD2 scored.
        var textBytes: Int
    }

    /// Detects `text`. `hint` is a CLD2 language code to favour; `bestEffort` asks for a guess on
    /// text too short for CLD2's own reliability rules.
    static func detect(_ text: String, hint: String? = nil, bestEffort: Bool = false) -> Result {
        // The shim copies the bytes (padded for CLD2), so they are lent in place, not copied here too.
        let utf8 = interchangeUTF8(text)
        return utf8.withContiguousStorageIfAvailable { detect(utf8: $0, hint: hint, bestEffort: bestEffort) }
            ?? Array(utf8).withUnsafeBufferPointer { detect(utf8: $0, hint: hint, bestEffort: bestEffort) }
    }

    /// ``detect(_:hint:bestEffort:)`` on UTF-8 bytes that are interchange-valid (see
    /// ``interchangeUTF8(_:)``). The answer depends on these bytes alone, never on the memory
    /// after them (the shim hands CLD2 a NUL-padded copy).
    static func detect(utf8 bytes: UnsafeBufferPointer<UInt8>, hint: String? = nil, bestEffort: Bool = false) -> Result {
        var raw = glossa_cld2_result()
        let status = bytes.withMemoryRebound(to: CChar.self) { chars in
            if let hint {
                return hint.withCString { glossa_cld2_detect(chars.baseAddress, chars.count, $0, bestEffort ? 1 : 0, &raw) }
            }
            return glossa_cld2_detect(chars.baseAddress, chars.count, nil, bestEffort ? 1 : 0, &raw)
        }
        // After interchangeUTF8 the shim cannot reject the text; if it ever does (or finds no
        // memory for its copy), the answer is "unknown" (the result is zeroed), never a crash.
        guard status == 0 else { return Result(candidates: [], isReliable: false, textBytes: 0) }
        var candidates: [Candidate] = []
        withUnsafeBytes(of: raw.code) { codes in
            for index in 0..<3 {
                let slot = codes[(index * Int(GLOSSA_CLD2_CODE_CAPACITY))...].prefix(Int(GLOSSA_CLD2_CODE_CAPACITY))
                let code = String(decoding: slot.prefix { $0 != 0 }, as: UTF8.self)
                let percent = [raw.percent.0, raw.percent.1, raw.percent.2][index]
                let score = [raw.normalized_score.0, raw.normalized_score.1, raw.normalized_score.2][index]
                if code != "un", !code.isEmpty { candidates.append(Candidate(code: code, percent: Int(percent), normalizedScore: score)) }
            }
        }
        return Result(candidates: candidates, isReliable: raw.is_reliable != 0, textBytes: Int(raw.text_bytes))
    }

    /// Every language code CLD2 knows (one per CLD2 language number, in its order).
    static var languageCodes: [String] {
        var codes: [String] = []
        var index: Int32 = 0
        while let code = glossa_cld2_language_code(index) {
            codes.append(String(cString: code))
            index += 1
        }
        return codes
    }

    /// CLD2's version text ("code_version - data_build_date"), for diagnostics.
    static var version: String { String(cString: glossa_cld2_version()) }

    /// The text's UTF-8 with every scalar that CLD2's "interchange-valid" check rejects turned
    /// into a space: C0 controls other than tab, LF, FF and CR (NUL included), DEL, C1 controls
    /// and the noncharacters. Swift strings are valid UTF-8, but CLD2 refuses these scalars and
    /// would otherwise return "unknown" for a whole text that merely contains one.
    static func interchangeUTF8(_ text: String) -> String.UTF8View {
        guard text.unicodeScalars.contains(where: isRejected) else { return text.utf8 }
        var cleaned = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { cleaned.append(isRejected(scalar) ? " " : scalar) }
        return String(cleaned).utf8
    }

    private static func isRejected(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0C, 0x0D: return false
        case 0x00...0x1F, 0x7F...0x9F, 0xFDD0...0xFDEF: return true
        default: return scalar.value & 0xFFFE == 0xFFFE
        }
    }
}

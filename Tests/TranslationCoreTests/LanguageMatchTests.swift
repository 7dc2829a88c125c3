import Testing
import TranslationCore

@Suite("LanguageMatch: the one rule for whether an offered code serves a wanted one")
struct LanguageMatchTests {
    /// One row: an offered code, a wanted one, the score the service's router gave before this
    /// rule moved here (`Router.score`), and what the server's `ServedLanguages.covers` and the
    /// SDK's `LanguageCode.serves` decided (both: same language, no conflicting script).
    struct Row: Sendable, CustomTestStringConvertible {
        let offered: LanguageCode
        let wanted: LanguageCode
        let score: Int?
        let sameWrittenLanguage: Bool
        var testDescription: String { "\(offered) for \(wanted)" }
    }

    static let table: [Row] = [
        // Exact, in any spelling.
        Row(offered: "en", wanted: "eng", score: 100, sameWrittenLanguage: true),
        Row(offered: "pt-BR", wanted: "pt_BR", score: 100, sameWrittenLanguage: true),
        Row(offered: "zh-Hant", wanted: "zh-TW", score: 100, sameWrittenLanguage: true),
        Row(offered: "nno_e", wanted: "nn-x-e", score: 100, sameWrittenLanguage: true),
        // A base form serves any regional, script or variant request.
        Row(offered: "pt", wanted: "pt-BR", score: 50, sameWrittenLanguage: true),
        Row(offered: "en", wanted: "en-US", score: 50, sameWrittenLanguage: true),
        Row(offered: "zh", wanted: "zh-Hant", score: 50, sameWrittenLanguage: true),
        Row(offered: "sr", wanted: "sr-Latn", score: 50, sameWrittenLanguage: true),
        Row(offered: "ca", wanted: "ca-valencia", score: 50, sameWrittenLanguage: true),
        Row(offered: "nn", wanted: "nn-x-e", score: 50, sameWrittenLanguage: true),
        // A script alone serves the base request.
        Row(offered: "zh-Hant", wanted: "zh", score: 40, sameWrittenLanguage: true),
        Row(offered: "sr-Latn", wanted: "sr", score: 40, sameWrittenLanguage: true),
        // A variant serves a base request as a last resort.
        Row(offered: "pt-BR", wanted: "pt", score: 9, sameWrittenLanguage: true),
        Row(offered: "en-US", wanted: "en", score: 9, sameWrittenLanguage: true),
        Row(offered: "zh-Hant-TW", wanted: "zh", score: 9, sameWrittenLanguage: true),
        Row(offered: "ca-valencia", wanted: "ca", score: 9, sameWrittenLanguage: true),
        Row(offered: "nn-x-e", wanted: "nn", score: 9, sameWrittenLanguage: true),
        Row(offered: "por_PTpre1990", wanted: "pt", score: 8, sameWrittenLanguage: true),
        Row(offered: "ca-valencia-x-uni", wanted: "ca", score: 8, sameWrittenLanguage: true),
        // Siblings and narrower codes: the router never substituted them; the two yes/no checks
        // said yes (the rows where the three rules differed).
        Row(offered: "pt-BR", wanted: "pt-PT", score: nil, sameWrittenLanguage: true),
        Row(offered: "en-US", wanted: "en-GB", score: nil, sameWrittenLanguage: true),
        Row(offered: "zh-Hant-TW", wanted: "zh-TW", score: nil, sameWrittenLanguage: true),
        Row(offered: "zh-Hant", wanted: "zh-Hant-TW", score: nil, sameWrittenLanguage: true),
        Row(offered: "sr-Latn", wanted: "sr-Latn-RS", score: nil, sameWrittenLanguage: true),
        Row(offered: "por_PTpre1990", wanted: "pt-PT", score: nil, sameWrittenLanguage: true),
        Row(offered: "ca-valencia-x-uni", wanted: "ca-valencia", score: nil, sameWrittenLanguage: true),
        Row(offered: "ca-valencia", wanted: "ca-valencia-x-uni", score: nil, sameWrittenLanguage: true),
        Row(offered: "nn-x-e", wanted: "nn-x-a", score: nil, sameWrittenLanguage: true),
        // Another script, another language: nobody ever matched these.
        Row(offered: "zh-Hans", wanted: "zh-Hant", score: nil, sameWrittenLanguage: false),
        Row(offered: "zh-Hans", wanted: "zh-TW", score: nil, sameWrittenLanguage: false),
        Row(offered: "zh-Hant-TW", wanted: "zh-Hans", score: nil, sameWrittenLanguage: false),
        Row(offered: "sr-Latn", wanted: "sr-Cyrl", score: nil, sameWrittenLanguage: false),
        Row(offered: "nb", wanted: "no", score: nil, sameWrittenLanguage: false),
        Row(offered: "no", wanted: "nb", score: nil, sameWrittenLanguage: false),
        Row(offered: "nb", wanted: "nn", score: nil, sameWrittenLanguage: false),
        Row(offered: "hbs", wanted: "sr", score: nil, sameWrittenLanguage: false),
        Row(offered: "es", wanted: "en", score: nil, sameWrittenLanguage: false),
        Row(offered: "zlm", wanted: "ms", score: nil, sameWrittenLanguage: false),
    ]

    @Test("the score is the router's", arguments: table)
    func score(_ row: Row) {
        #expect(row.offered.matchScore(for: row.wanted) == row.score)
        #expect(row.offered.serves(row.wanted) == (row.score != nil))
    }

    /// What the server's `ServedLanguages.covers` and the SDK's `LanguageCode.serves` decided
    /// before they used ``LanguageCode/serves(_:)``: same language, no conflicting script.
    static func sameWrittenLanguage(_ offered: LanguageCode, _ wanted: LanguageCode) -> Bool {
        guard offered.language == wanted.language else { return false }
        if let a = offered.script, let b = wanted.script, a != b { return false }
        return true
    }

    @Test("the yes/no column is the old same-language check", arguments: table)
    func oldCheck(_ row: Row) {
        #expect(Self.sameWrittenLanguage(row.offered, row.wanted) == row.sameWrittenLanguage)
    }

    /// Why the server's and the SDK's answers did not change when they took the router's rule:
    /// they ask whether a *list* serves a request, and the lists they ask (the service's
    /// languages and directions) hold each code's base form too, which serves every request of
    /// its language. Over such a list the two rules agree for every request.
    @Test("over a list holding base forms, the rule accepts what the old check accepted")
    func listsWithBaseForms() {
        let offered = Self.table.map(\.offered)
        let list = Array(Set(offered + offered.map(\.base)))
        for wanted in Self.table.map(\.wanted) + offered {
            #expect(list.contains { $0.serves(wanted) } == list.contains { Self.sameWrittenLanguage($0, wanted) }, "\(wanted)")
        }
        // Without the base form, a sibling is no longer accepted: pt-PT is not pt-BR.
        #expect(![LanguageCode("pt-BR")].contains { $0.serves("pt-PT") })
        #expect([LanguageCode("pt-BR")].contains { Self.sameWrittenLanguage($0, "pt-PT") })
    }
}

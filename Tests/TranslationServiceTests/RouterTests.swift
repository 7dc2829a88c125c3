import Testing
import TranslationCore
import TranslationTesting
@testable import TranslationService

@Suite("Router: direct pairs, variants and pivots")
struct RouterTests {
    let router = Router(
        served: pairs("eng-spa", "spa-eng", "spa-cat", "cat-spa", "es-pt", "es-pt_BR", "pt-es", "fr-es", "es-fr",
                      "eng-cat", "eng-cat_valencia", "cat-eng_US")
            .map { ServedPair(pair: $0, engineIndex: 0) },
        engineNames: ["apertium"])

    @Test("a direct pair is found from any spelling")
    func direct() throws {
        let r = try #require(router.route(from: "en", to: "es"))
        #expect(!r.isPivot)
        #expect(r.steps[0].pair.apertiumName == "eng-spa")
        #expect(router.route(from: "en-US", to: "es-MX")?.steps[0].pair.apertiumName == "eng-spa")
    }

    @Test("the exact variant wins, the base form serves a base request")
    func variants() {
        #expect(router.route(from: "es", to: "pt-BR")?.steps[0].pair == LanguagePair(source: "es", target: "pt-BR"))
        #expect(router.route(from: "es", to: "pt")?.steps[0].pair == LanguagePair(source: "es", target: "pt"))
        #expect(router.route(from: "en", to: "ca-valencia")?.steps[0].pair.apertiumName == "eng-cat_valencia")
        #expect(router.route(from: "en", to: "ca")?.steps[0].pair.apertiumName == "eng-cat")
        #expect(router.route(from: "ca", to: "en")?.steps[0].pair.apertiumName == "cat-eng_US")
    }

    @Test("no direct pair: pivot through a preferred language")
    func pivot() throws {
        let r = try #require(router.route(from: "en", to: "pt"))
        #expect(r.isPivot)
        #expect(r.path == ["en", "es", "pt"])
        let fr = try #require(router.route(from: "fr", to: "ca"))
        #expect(fr.path == ["fr", "es", "ca"])
    }

    @Test("no path at all")
    func none() {
        #expect(router.route(from: "en", to: "ja") == nil)
        #expect(router.route(from: "de", to: "es") == nil)
    }

    @Test("Chinese scripts are never substituted")
    func scripts() {
        let zh = Router(served: pairs("en-zh_Hans").map { ServedPair(pair: $0, engineIndex: 0) }, engineNames: ["x"])
        _ = zh  // the pair parser does not take scripts in Apertium names; check the scorer directly
        #expect(LanguageCode("zh-Hans").matchScore(for: "zh-Hant") == nil)
        #expect(LanguageCode("zh").matchScore(for: "zh-Hant") == 50)
    }

    @Test("the table lists each direction once, direct pairs first, and only what routes")
    func table() {
        let table = RouteTable(router: router)
        let keys = table.directions.map { "\($0.source)>\($0.target)" }
        #expect(Set(keys).count == keys.count)
        #expect(table.directions.prefix { !$0.route.isPivot }.count == table.directions.filter { !$0.route.isPivot }.count)
        #expect(table.directions.contains { $0.route.isPivot && $0.source == "en" && $0.target == "pt" })
        for direction in table.directions {
            #expect(router.route(from: direction.source, to: direction.target) == direction.route)
        }
        // `en → en-US` is no direction: the text is already English (and no pair converts it).
        #expect(!table.directions.contains { $0.source == "en" && $0.target.language == "en" })
    }

    @Test("several pivots when needed, shortest first, bounded")
    func multiPivot() throws {
        let chain = Router(served: pairs("eng-spa", "spa-cat", "cat-oci", "oci-fra", "fra-frp").map { ServedPair(pair: $0, engineIndex: 0) },
                           engineNames: ["x"])
        let r = try #require(chain.route(from: "en", to: "fr"))
        #expect(r.path == ["en", "es", "ca", "oc", "fr"])
        // Five steps are over the bound of four.
        #expect(chain.route(from: "en", to: "frp") == nil)
        #expect(chain.route(from: "es", to: "frp")?.steps.count == 4)
        let one = Router(served: chain.served, engineNames: ["x"], maxSteps: 1)
        #expect(one.route(from: "en", to: "ca") == nil && one.route(from: "en", to: "es") != nil)
    }

    @Test("a shorter route beats a preferred pivot; among equals the preferred pivot wins")
    func preference() throws {
        let g = Router(served: pairs("eng-spa", "spa-ita", "eng-fra", "fra-ita", "ita-srd", "eng-dan", "dan-srd")
            .map { ServedPair(pair: $0, engineIndex: 0) }, engineNames: ["x"])
        #expect(g.route(from: "en", to: "it")?.path == ["en", "es", "it"])
        #expect(g.route(from: "en", to: "sc")?.path == ["en", "da", "sc"])
    }

    @Test("a pair within one language is a direction; a pivot may be in the target's language")
    func sameLanguage() throws {
        let g = Router(served: pairs("dan-nno", "nno-nno_e", "nob-nno_e").map { ServedPair(pair: $0, engineIndex: 0) },
                       engineNames: ["x"])
        #expect(g.route(from: "da", to: "nn-x-e")?.path == ["da", "nn", "nn-x-e"])
        #expect(RouteTable.sameLanguageRoute(from: "nn", to: "nn-x-e", router: g)?.steps.count == 1)
        let table = RouteTable(router: g)
        #expect(table.targetsBySource["nn"] == ["nn-x-e"])
        #expect(table.targetsBySource["da"] == ["nn", "nn-x-e"])
    }

    @Test("unavailable pairs are simply not in the graph: routes go around them")
    func around() throws {
        let all = pairs("eng-spa", "spa-por", "eng-cat", "cat-por")
        let broken = LanguagePair(source: "es", target: "pt")
        let g = Router(served: all.filter { $0 != broken }.map { ServedPair(pair: $0, engineIndex: 0) }, engineNames: ["x"])
        #expect(g.route(from: "en", to: "pt")?.path == ["en", "ca", "pt"])
        #expect(g.route(from: "es", to: "pt") == nil)
    }
}

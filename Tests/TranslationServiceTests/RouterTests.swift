import Testing
import TranslationCore
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
        #expect(Router.score("zh-Hans", for: "zh-Hant") == nil)
        #expect(Router.score("zh", for: "zh-Hant") == 50)
    }

    @Test("all routes list each pair once and add pivots")
    func allRoutes() {
        let routes = router.allRoutes()
        #expect(routes.filter { !$0.isPivot }.count == 12)
        #expect(routes.contains { $0.isPivot && $0.source == "en" && $0.target == "pt" })
        let keys = routes.map { "\($0.source)>\($0.target)" }
        #expect(Set(keys).count == keys.count)
    }
}

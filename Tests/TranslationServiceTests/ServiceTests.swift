import Testing
import TranslationCore
import TranslationTesting
@testable import TranslationService

@Suite("TranslationService over fake engines")
struct ServiceTests {
    func makeService(maxTexts: Int = 1024) async -> TranslationService {
        var configuration = TranslationService.Configuration()
        configuration.maxTextsPerRequest = maxTexts
        return await TranslationService(
            engines: [FakeEngine(name: "first", served: pairs("eng-spa", "spa-cat")),
                      FakeEngine(name: "second", served: pairs("eng-spa", "fr-es", "de-fr"))],
            detector: FakeDetector.prefix, configuration: configuration)
    }

    @Test("results keep input order, empty text stays empty")
    func order() async throws {
        let service = await makeService()
        let out = try await service.translate(["a", "", "c"], from: "en", to: "es")
        #expect(out.map(\.translatedText) == ["a>es", "", "c>es"])
        #expect(out[0].route?.steps.map(\.engine) == ["first"])
        #expect(out[1].route == nil)
    }

    @Test("pivot path is reported")
    func pivot() async throws {
        let service = await makeService()
        let out = try await service.translate(["x"], from: "en", to: "ca")
        #expect(out[0].translatedText == "x>es>ca")
        #expect(out[0].route?.path == ["en", "es", "ca"])
    }

    @Test("detection per text, grouped by language, order kept")
    func detection() async throws {
        let service = await makeService()
        let out = try await service.translate(["en:one", "fr:two", "es:three", "en:four"], from: nil, to: "es")
        #expect(out.map(\.translatedText) == ["en:one>es", "fr:two>es", "es:three", "en:four>es"])
        #expect(out.map(\.source) == ["en", "fr", "es", "en"])
        #expect(out[1].detection?.confidence == 0.9)
    }

    @Test("undetectable text comes back unchanged, its source undetermined")
    func undetectable() async throws {
        let service = await makeService()
        let out = try await service.translate(["???", "en:one"], from: nil, to: "es")
        #expect(out.map(\.translatedText) == ["???", "en:one>es"])
        #expect(out[0].source == nil && out[0].detection == .unknown && out[0].route == nil)
    }

    @Test("unsupported languages and pairs list what is available")
    func unsupported() async {
        let service = await makeService()
        await #expect { try await service.translate(["x"], from: "ja", to: "es") } throws: {
            guard let e = $0 as? TranslationError else { return false }
            return e.kind == .unsupportedSourceLanguage && e.message.contains("en, es, fr")
        }
        await #expect { try await service.translate(["x"], from: "en", to: "de") } throws: {
            ($0 as? TranslationError)?.kind == .unsupportedTargetLanguage
        }
        await #expect { try await service.translate(["x"], from: "ca", to: "en") } throws: {
            guard let e = $0 as? TranslationError else { return false }
            return e.kind == .unsupportedSourceLanguage
        }
        await #expect { try await service.translate(["x"], from: "es", to: "fr") } throws: {
            guard let e = $0 as? TranslationError else { return false }
            // The refusal names exactly what Spanish reaches.
            return e.kind == .unsupportedPair && e.message.hasSuffix("Spanish can be translated into: ca.")
        }
    }

    @Test("limits are enforced with a message")
    func limits() async {
        let service = await makeService(maxTexts: 2)
        await #expect { try await service.translate(["a", "b", "c"], from: "en", to: "es") } throws: {
            ($0 as? TranslationError)?.kind == .limitExceeded
        }
    }

    @Test("languages and routes")
    func listing() async {
        let service = await makeService()
        #expect(service.languages() == ["ca", "de", "en", "es", "fr"])
        #expect(service.routes().contains { $0.isPivot && $0.path == ["en", "es", "ca"] })
    }

    @Test("with pivots off only direct pairs are offered and used")
    func noPivot() async {
        var configuration = TranslationService.Configuration()
        configuration.allowPivot = false
        let service = await TranslationService(engines: [FakeEngine(name: "only", served: pairs("eng-spa", "spa-cat"))],
                                               detector: FakeDetector.prefix, configuration: configuration)
        #expect(service.routes().allSatisfy { !$0.isPivot })
        #expect(service.routes().count == 2)
        #expect(service.route(from: "en", to: "ca") == nil)
        await #expect { try await service.translate(["x"], from: "en", to: "ca") } throws: {
            ($0 as? TranslationError)?.kind == .unsupportedPair
        }
    }

    @Test("a pair that stops working on first use is routed around at once, and listed nowhere")
    func reroutes() async throws {
        let broken = LanguagePair(source: "es", target: "pt")
        let engine = FakeEngine(name: "failing", served: pairs("eng-spa", "spa-por", "eng-cat", "cat-por", "spa-eng"), failingOnFirstUse: [broken])
        let service = await TranslationService(engines: [engine], detector: FakeDetector.prefix)
        #expect(service.route(from: "en", to: "pt")?.path == ["en", "es", "pt"])
        let out = try await service.translate(["x"], from: "en", to: "pt")
        #expect(out[0].translatedText == "x>ca>pt" && out[0].route?.path == ["en", "ca", "pt"])
        #expect(!service.directions().contains { $0.route.steps.contains { $0.pair == broken } })
        #expect(service.route(from: "es", to: "pt")?.path == ["es", "en", "ca", "pt"])
        #expect(service.targets(from: "es") == ["ca", "en", "pt"])
        #expect(await service.unavailablePairs() == [UnavailablePair(engine: "failing", pair: broken, reason: "its probe failed")])
    }

    @Test("the listing is built once per change of the working pairs, however many ask for it")
    func listingBuiltOncePerChange() async throws {
        let broken = LanguagePair(source: "es", target: "pt")
        let engine = FakeEngine(name: "failing", served: pairs("eng-spa", "spa-por", "eng-cat", "cat-por", "spa-eng"), failingOnFirstUse: [broken])
        let service = await TranslationService(engines: [engine], detector: FakeDetector.prefix)
        func listEverything(_ times: Int) async {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<times {
                    group.addTask { _ = (service.routes(), service.directions(), service.targets(from: "en"), service.listedTargetLanguages()) }
                }
            }
        }
        #expect(service.tableBuilds.load(ordering: .relaxed) == 0)
        await listEverything(50)
        #expect(service.tableBuilds.load(ordering: .relaxed) == 1)
        #expect(service.routes().contains { $0.steps.contains { $0.pair == broken } })
        _ = try await service.translate(["x"], from: "en", to: "pt")
        await listEverything(50)
        #expect(service.tableBuilds.load(ordering: .relaxed) == 2)
        #expect(!service.routes().contains { $0.steps.contains { $0.pair == broken } })
        #expect(service.routingGeneration == 1)
    }

    @Test("a remembered route is forgotten when its pair stops working: the next request goes around it")
    func rememberedRoutesFollowThePairs() async throws {
        let broken = LanguagePair(source: "es", target: "pt")
        let engine = FakeEngine(name: "failing", served: pairs("eng-spa", "spa-por", "eng-cat", "cat-por"), failingOnFirstUse: [broken])
        let service = await TranslationService(engines: [engine], detector: FakeDetector.prefix)
        let first = try #require(service.route(from: "en", to: "pt"))
        #expect(first.steps.map(\.pair) == [LanguagePair(source: "en", target: "es"), broken])
        #expect(service.route(from: "en", to: "pt") == first)
        _ = try? await service.translate(["x"], from: "en", to: "pt")
        let around = try #require(service.route(from: "en", to: "pt"))
        #expect(around.steps.map(\.pair) == [LanguagePair(source: "en", target: "ca"), LanguagePair(source: "ca", target: "pt")])
        #expect(service.route(from: "es", to: "pt") == nil)
    }

    @Test("per-source targets are exactly what translates; same-language text stays unchanged")
    func perSourceTargets() async throws {
        let service = await TranslationService(engines: [FakeEngine(name: "t", served: pairs("eng-spa", "spa-cat", "spa-eng_US", "nno-nno_e"))],
                                               detector: FakeDetector.prefix)
        #expect(service.targets(from: "en") == ["ca", "es"])
        #expect(service.targets(from: "es-MX") == ["ca", "en", "en-US"])
        #expect(service.targets(from: "nn") == ["nn-x-e"])
        #expect(service.targetLanguages() == ["ca", "en", "en-US", "es", "nn-x-e"])
        #expect(try await service.translate(["x"], from: "en", to: "en-US")[0].translatedText == "x")
        #expect(service.route(from: "en", to: "en-US") == nil)
        #expect(try await service.translate(["x"], from: "nn", to: "nn-x-e")[0].translatedText == "x>nn-x-e")
        for source in service.sourceLanguages() {
            for target in service.languages() where target != source {
                let listed = service.targets(from: source).contains(target)
                #expect((service.route(from: source, to: target) != nil) == listed, "\(source)→\(target)")
            }
        }
    }

    @Test("on a route of several steps only the last one marks unknown words")
    func marksOnlyOnTheLastStep() async throws {
        let service = await TranslationService(engines: [FakeEngine(name: "marking", served: pairs("eng-spa", "spa-cat", "cat-fr"), marksUnknownWords: true)],
                                               detector: FakeDetector.prefix)
        let marked = TranslationOptions(markUnknownWords: true)
        let out = try await service.translate(["x"], from: "en", to: "fr", options: marked)
        #expect(out[0].route?.path == ["en", "es", "ca", "fr"])
        #expect(out[0].translatedText == "*x>es>ca>fr")
        #expect(try await service.translate(["x"], from: "en", to: "es", options: marked)[0].translatedText == "*x>es")
        #expect(try await service.translate(["x"], from: "en", to: "fr")[0].translatedText == "x>es>ca>fr")
    }
}

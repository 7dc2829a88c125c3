import Testing
import TranslationCore
@testable import LanguageDetection

/// The fallback's rules: scripts first, then naive Bayes among the languages of that script.
@Suite struct NGramDetectorTests {
    let detector = NGramDetector()

    @Test(arguments: [
        ("안녕", "ko"), ("καλημέρα", "el"), ("שלום", "he"), ("สวัสดี", "th"), ("გამარჯობა", "ka"),
        ("ありがとう", "ja"), ("カタカナ", "ja"), ("東京に行きます", "ja"), ("Բարեւ", "hy"), ("வணக்கம்", "ta"),
    ])
    func singleLanguageScriptsDecide(text: String, expected: String) {
        let result = detector.detection(for: text, hint: nil)
        #expect(result.language == LanguageCode(stringLiteral: expected))
        #expect(result.isReliable)
        #expect(result.confidence == NGramDetector.maximumConfidence)
    }

    @Test func mixedScriptsLowerTheConfidence() {
        let result = detector.detection(for: "안녕하세요 hi", hint: nil)
        #expect(result.language == "ko")
        #expect(result.confidence < NGramDetector.maximumConfidence)
        #expect(!result.isReliable)
    }

    @Test func hanWithoutKanaIsChinese() {
        #expect(detector.detection(for: "我们的国家", hint: nil).language?.language == "zh")
        #expect(detector.detection(for: "這個國家的經濟", hint: nil).language == LanguageCode(language: "zh", script: "Hant"))
    }

    @Test(arguments: [("Hello there!!!", "en"), ("Bonjour", "fr"), ("Gracias", "es"), ("Дякую", "uk")])
    func shortLatinAndCyrillicWords(text: String, expected: String) {
        let result = detector.detection(for: text, hint: nil)
        #expect(result.language == LanguageCode(stringLiteral: expected), "\(text)")
        #expect(!result.isReliable)
        #expect(result.confidence > 0 && result.confidence <= NGramDetector.maximumConfidence)
    }

    @Test func candidatesAreLimitedToTheTextsScript() {
        let result = detector.detection(for: "Добрый день", hint: nil)
        for alternative in result.alternatives {
            #expect(["ru", "uk", "bg", "mk", "sr"].contains(alternative.language.language))
        }
    }

    @Test func hintTipsACloseCallButNotAClearOne() {
        #expect(detector.detection(for: "Hola", hint: "ca").language == "ca")
        #expect(detector.detection(for: "Hola", hint: "es").language == "es")
        // "Hello there" is plainly English: a Finnish or Spanish hint changes nothing.
        #expect(detector.detection(for: "Hello there", hint: "es").language == "en")
        #expect(detector.detection(for: "Hello there", hint: "fi").language == "en")
    }

    @Test(arguments: ["", "  ", "42", "😀", "ⵜⴰⵎⴰⵣⵉⵖⵜ"])
    func noLettersOrNoModelForTheScriptIsUnknown(text: String) {
        #expect(detector.detection(for: text, hint: nil) == .unknown)
    }

    @Test func confidencesAreOrderedAndBounded() {
        let result = detector.detection(for: "Det var en gång", hint: nil)
        let all = [result.confidence] + result.alternatives.map(\.confidence)
        #expect(all == all.sorted(by: >))
        #expect(all.allSatisfy { (0...NGramDetector.maximumConfidence).contains($0) })
        #expect(result.alternatives.count == 2)
    }

    @Test func softmaxSumsToOne() {
        let p = NGramDetector.softmax([-1000, -1001, -1010])
        #expect(abs(p.reduce(0, +) - 1) < 1e-12)
        #expect(p[0] > p[1] && p[1] > p[2])
        #expect(NGramDetector.softmax([]).isEmpty)
    }

    @Test func asyncBatchKeepsOrder() async {
        let results = await detector.detect(["안녕", "", "Bonjour"])
        #expect(results.map(\.language) == ["ko", nil, "fr"])
    }
}

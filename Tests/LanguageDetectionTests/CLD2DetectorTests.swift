import Foundation
import Testing
import TranslationCore
@testable import LanguageDetection

/// Real CLD2 (Debian's libcld2 with the full tables) behind ``CLD2Detector``.
@Suite struct CLD2DetectorTests {
    let detector = CLD2Detector()

    @Test func tutorialExampleIsEnglish() async {
        let results = await detector.detect(["Hello there!!!"])
        #expect(results.count == 1)
        #expect(results[0].language == "en")
        #expect(results[0].confidence > 0 && results[0].confidence <= 1)
    }

    @Test(arguments: [
        ("The weather is lovely today and we are going to the beach.", "en"),
        ("El tiempo es estupendo hoy y vamos a ir a la playa con mis amigos.", "es"),
        ("Le temps est magnifique aujourd'hui et nous allons à la plage.", "fr"),
        ("Das Wetter ist heute herrlich und wir gehen an den Strand.", "de"),
        ("Il tempo è bellissimo oggi e andiamo in spiaggia con gli amici.", "it"),
        ("O tempo está ótimo hoje e vamos à praia com os nossos amigos.", "pt"),
        ("Avui fa un temps magnífic i anirem a la platja amb els amics.", "ca"),
        ("Сегодня прекрасная погода, и мы идём на пляж с друзьями.", "ru"),
        ("Σήμερα ο καιρός είναι υπέροχος και πηγαίνουμε στην παραλία.", "el"),
        ("今日はとても良い天気なので、友達と一緒に海に行きます。", "ja"),
        ("오늘은 날씨가 정말 좋아서 친구들과 함께 해변에 갑니다.", "ko"),
        ("今天天气很好，我们和朋友一起去海边。", "zh-Hans"),
        ("Het weer is vandaag prachtig en we gaan met vrienden naar het strand.", "nl"),
        ("היום מזג האוויר נפלא ואנחנו הולכים לים עם חברים.", "he"),
    ])
    func sentenceInEachLanguage(text: String, expected: String) async {
        let result = await detector.detect([text])[0]
        #expect(result.language == LanguageCode(stringLiteral: expected), "\(text)")
        #expect(result.isReliable, "\(text)")
    }

    /// Esperanto, Occitan and Nynorsk exist only in libcld2_full's tables: this fails if the link
    /// order in Package.swift stops the full tables from interposing on the default ones.
    @Test func fullTablesAreInUse() {
        let esperanto = CLD2.detect("La vetero estas tre bela hodiaŭ kaj ni iros al la plaĝo kun niaj amikoj.")
        #expect(esperanto.candidates.first?.code == "eo")
        let occitan = CLD2.detect("Lo temps es fòrça bèl uèi e anam a la plaja amb los amics nòstres.")
        #expect(occitan.candidates.first?.code == "oc")
    }

    @Test func batchGivesOneResultPerInputInOrder() async {
        let texts = ["Hello there!!!", "", "Buenos días a todos mis amigos", "12345", "안녕하세요", "Bonjour"]
        let results = await detector.detect(texts)
        #expect(results.count == texts.count)
        #expect(results[0].language == "en")
        #expect(results[1] == .unknown)
        #expect(results[2].language == "es")
        #expect(results[3] == .unknown)
        #expect(results[4].language == "ko")
        #expect(results[5].language == "fr")
    }

    @Test(arguments: ["", "   \n\t ", "1234567890", "😀😂🎉", "!!! ??? ...", "3.14 + 2.72 = 5.86", "\u{0}\u{0}"])
    func nothingToDetectIsUnknown(text: String) async {
        #expect(await detector.detect([text]) == [.unknown])
    }

    @Test func emptyBatchIsEmpty() async {
        #expect(await detector.detect([]).isEmpty)
    }

    @Test func nulAndControlBytesDoNotHideTheLanguage() async {
        let text = "The committee will publish its report\u{0} on the economy\u{1}\u{7F}\u{85} next week, the minister said.\u{FFFF}"
        let result = await detector.detect([text])[0]
        #expect(result.language == "en")
        #expect(result.isReliable)
    }

    /// 1 MB in one text and a batch over the inline limit: detected whole, off the cooperative pool.
    @Test func megabyteTextIsDetected() async {
        let sentence = "La comisión publicará su informe sobre la economía la semana que viene, dijo el ministro. "
        let big = String(repeating: sentence, count: 1_048_576 / sentence.utf8.count + 1)
        #expect(big.utf8.count > 1_048_576)
        let results = await detector.detect([big, "Hello there!!!"])
        #expect(results.map(\.language) == ["es", "en"])
        #expect(results[0].isReliable)
    }

    @Test func hintTipsAnAmbiguousShortText() async {
        // "Hola" is Spanish and Catalan alike; the hint decides.
        let catalan = await detector.detect(["Hola"], hint: "ca")[0]
        #expect(catalan.language == "ca")
        let spanish = await detector.detect(["Hola"], hint: "es")[0]
        #expect(spanish.language == "es")
    }

    /// Greetings are rare in the fallback's news-domain training text; CLD2's best-effort guess,
    /// given as a prior, carries them.
    @Test(arguments: [("Привет", "ru"), ("Bonjour", "fr"), ("Gracias", "es"), ("Hello", "en")])
    func shortGreetings(text: String, expected: String) async {
        let result = await detector.detect([text])[0]
        #expect(result.language == LanguageCode(stringLiteral: expected), "\(text)")
        #expect(result.confidence > 0)
    }

    @Test func fallbackAnswersAreLessConfidentThanReliableOnes() async {
        let results = await detector.detect(["Hello there!!!", "The weather is lovely today and we are going to the beach."])
        #expect(!results[0].isReliable)
        #expect(results[0].confidence <= NGramDetector.maximumConfidence)
        #expect(results[1].confidence > results[0].confidence)
    }
}

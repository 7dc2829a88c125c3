import Foundation
import Testing
import TranslationCore
@testable import LanguageDetection

/// The product detector: the model, the non-language filter and real CLD2 (Debian's libcld2
/// with the full tables) together.
@Suite struct GlossaDetectorTests {
    let detector = GlossaDetector()

    @Test func tutorialExampleIsEnglish() async {
        let results = await detector.detect(["Hello there!!!"])
        #expect(results.count == 1)
        #expect(results[0].language == "en")
        #expect(results[0].confidence > 0 && results[0].confidence <= 1)
    }

    /// One sentence per script the model reads, confidently and reliably.
    @Test(arguments: [
        ("The weather is lovely today and we are going to the beach.", "en"),
        ("El tiempo es estupendo hoy y vamos a ir a la playa con mis amigos.", "es"),
        ("Le temps est magnifique aujourd'hui et nous allons à la plage.", "fr"),
        ("Das Wetter ist heute herrlich und wir gehen an den Strand.", "de"),
        ("Il tempo è bellissimo oggi e andiamo in spiaggia con gli amici.", "it"),
        ("Avui fa un temps magnífic i anirem a la platja amb els amics.", "ca"),
        ("Dzisiaj jest piękna pogoda i idziemy z przyjaciółmi na plażę.", "pl"),
        ("Tänään on kaunis ilma ja menemme ystävien kanssa rannalle.", "fi"),
        ("Сегодня прекрасная погода, и мы идём на пляж с друзьями.", "ru"),
        ("Σήμερα ο καιρός είναι υπέροχος και πηγαίνουμε στην παραλία.", "el"),
        ("今日はとても良い天気なので、友達と一緒に海に行きます。", "ja"),
        ("오늘은 날씨가 정말 좋아서 친구들과 함께 해변에 갑니다.", "ko"),
        ("今天天气很好，我们和朋友一起去海边。", "zh-Hans"),
        ("היום מזג האוויר נפלא ואנחנו הולכים לים עם חברים.", "he"),
        ("الطقس اليوم جميل جدا وسنذهب إلى الشاطئ مع أصدقائنا.", "ar"),
        ("आज मौसम बहुत अच्छा है और हम दोस्तों के साथ समुद्र तट पर जा रहे हैं।", "hi"),
        ("วันนี้อากาศดีมากและเราจะไปทะเลกับเพื่อน ๆ", "th"),
    ])
    func sentenceInEachScript(text: String, expected: String) async {
        let result = await detector.detect([text])[0]
        #expect(result.language == LanguageCode(stringLiteral: expected), "\(text)")
        #expect(result.isReliable, "\(text)")
        #expect(result.confidence >= ModelDetector.reliableConfidence, "\(text)")
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

    /// Input with no language in it is `und`, whatever it looks like.
    @Test(arguments: [
        "", "   \n\t ", "1234567890", "😀😂🎉", "!!! ??? ...", "3.14 + 2.72 = 5.86", "\u{0}\u{0}",
        "https://www.example.com/path/to/page?query=1", "www.wikipedia.org", "john.doe@example.com",
        "+1 (555) 123-4567", "#1f2937", "$x_1 = y^2$", "2024-12-01T10:00:00Z", "->> ==> <=>", "@glossa_dev",
        "/usr/local/bin/glossa", "C:\\Windows\\System32", "192.168.0.1:8080",
    ])
    func nonLanguageIsUnknown(text: String) async {
        #expect(await detector.detect([text]) == [.unknown], "\(text)")
    }

    /// Code and markup with a few words in them: an answer, never a confident one.
    @Test(arguments: [
        "if (x > 0) { return y; }", "for i in range(10): print(i)", "<div class=\"main\">Hello</div>",
        "SELECT name FROM users WHERE id = 42;", "let total = items.map(\\.price).reduce(0, +)",
    ])
    func codeIsNeverConfident(text: String) async {
        let result = await detector.detect([text])[0]
        #expect(result.confidence <= GlossaDetector.lowContentConfidence, "\(text)")
        #expect(!result.isReliable, "\(text)")
    }

    @Test func aURLInProseDoesNotChangeTheAnswer() async {
        let result = await detector.detect(["Das Protokoll steht unter https://example.com/protokoll.pdf zum Download bereit"])[0]
        #expect(result.language == "de")
    }

    /// Esperanto and Occitan exist only in libcld2_full's tables: this fails if the link order in
    /// Package.swift stops the full tables from interposing on the default ones.
    @Test func fullCLD2TablesAreInUse() {
        let esperanto = CLD2.detect("La vetero estas tre bela hodiaŭ kaj ni iros al la plaĝo kun niaj amikoj.")
        #expect(esperanto.candidates.first?.code == "eo")
        let occitan = CLD2.detect("Lo temps es fòrça bèl uèi e anam a la plaja amb los amics nòstres.")
        #expect(occitan.candidates.first?.code == "oc")
    }

    /// CLD2 reads the byte after its input (the script of a following letter); the shim's padded
    /// copy makes the answer depend on the text alone. Without it, "copy은" followed in memory by
    /// Hangul was English at 45 %, at 88 % followed by a space, and the same request could get
    /// different answers as the heap changed.
    @Test(arguments: ["copy은", "metroplus와 metro", "Hello world", "번역"])
    func cld2AnswersDependOnTheTextAlone(_ text: String) {
        let alone = CLD2.detect(text, bestEffort: true)
        for tail in [" ", "한국어", "abcdefgh", "при", "\u{0}"] {
            let memory = Array((text + tail).utf8)
            let followed = memory.withUnsafeBufferPointer {
                CLD2.detect(utf8: UnsafeBufferPointer(rebasing: $0[0..<text.utf8.count]), bestEffort: true)
            }
            #expect(followed == alone, "\(text) followed by \(tail)")
        }
    }

    /// Long text in a language the model lacks: CLD2 names it.
    @Test func longTextOutsideTheModelGetsCLD2sAnswer() async {
        let nepali = "नेपाल दक्षिण एसियामा अवस्थित एक भूपरिवेष्ठित देश हो। यसको राजधानी काठमाडौं हो र यहाँ धेरै जातजातिका मानिसहरू बस्छन्।"
        let result = await detector.detect([nepali])[0]
        #expect(result.language == "ne")
        #expect(!result.isReliable)
    }

    /// The same batch gives the same answers inline and through the Dispatch path.
    @Test func inlineAndOffPoolPathsAgree() async {
        let texts = (0..<20).map { ["Hello there!!!", "Guten Morgen zusammen", "안녕하세요", "", "Obrigado"][$0 % 5] }
        let inline = await GlossaDetector(inlineByteLimit: .max, inlineTextLimit: .max).detect(texts, hint: nil)
        let offPool = await GlossaDetector(inlineByteLimit: 0, inlineTextLimit: 0).detect(texts, hint: nil)
        #expect(inline == offPool)
        #expect(inline.count == texts.count)
    }

    @Test func reportsCLD2Version() {
        #expect(GlossaDetector.cld2Version.contains("-"))
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

    /// 1 MB in one text and a batch over the inline limit: detected, off the cooperative pool.
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
        #expect(await detector.detect(["Hola"], hint: "ca")[0].language == "ca")
        #expect(await detector.detect(["Hola"], hint: "es")[0].language == "es")
        // "Hello there" is plainly English: a Spanish hint changes nothing.
        #expect(await detector.detect(["Hello there"], hint: "es")[0].language == "en")
    }

    /// Greetings and thanks, the words a translation service sees alone.
    @Test(arguments: [
        ("Привет", "ru"), ("Bonjour", "fr"), ("Gracias", "es"), ("Good morning", "en"), ("Ciao", "it"), ("Merci beaucoup", "fr"),
        ("Danke schön", "de"), ("Dziękuję", "pl"), ("Kiitos", "fi"), ("Ďakujem", "sk"), ("Diolch", "cy"), ("Köszönöm", "hu"),
        ("Obrigado", "pt"), ("Teşekkürler", "tr"), ("Дякую", "uk"),
    ])
    func shortGreetings(text: String, expected: String) async {
        let result = await detector.detect([text])[0]
        #expect(result.language == LanguageCode(stringLiteral: expected), "\(text)")
        #expect(result.confidence > 0)
    }

    @Test func confidencesAreOrderedAndBounded() async {
        let result = await detector.detect(["Det var en gång"])[0]
        let all = [result.confidence] + result.alternatives.map(\.confidence)
        #expect(all.allSatisfy { (0...1).contains($0) })
        #expect(all.dropFirst().allSatisfy { $0 <= all[0] })
    }
}

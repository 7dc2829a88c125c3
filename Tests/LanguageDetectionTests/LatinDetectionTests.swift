import Testing
import TranslationCore
import LanguageDetection

/// Latin, which lingua knows and FLORES-200 lacks, is in the model: trained on the Clementine
/// Vulgate alone (PyPI vulgata-spacy; tests/tools/detector-model/export-wordlists.py) and tested
/// here on text of another author, age and spelling that the training never saw: Livy's story of
/// Lucretia (Ab urbe condita 1.57-59, public domain), as Debian's collatinus ships it
/// (data/lucretia.txt, with u for v). `make detector-profiles` cuts the whole text into
/// .build/detector-model/latin-testdata for `make detect-accuracy`; Data/SOURCES.md has the figures.
@Suite struct LatinDetectionTests {
    static let livy = [
        "Tarquinium, ubi et Collatinus cenabat Tarquinius, Egeri filius, incidit de uxoribus mentio.",
        "paucis id quidem horis posse sciri quantum ceteris praestet Lucretia sua.",
        "muliebris certaminis laus penes Lucretiam fuit.",
        "uictor maritus comiter inuitat regios iuuenes.",
        "et tum quidem ab nocturno iuuenali ludo in castra redeunt.",
        "Tarquinius inscio Collatino cum comite uno Collatiam uenit.",
        "Lucretiam sedentem maestam in cubiculo inueniunt.",
        "quid enim salui est mulieri amissa pudicitia ?",
        "uestigia uiri alieni, Collatine, in lecto sunt tuo;",
        "ceterum corpus est tantum uiolatum, animus insons;",
    ]

    @Test(arguments: livy)
    func livySentencesAreLatin(text: String) async {
        let detection = await GlossaDetector().detect([text])[0]
        #expect(detection.language == "la", "\(text) → \(String(describing: detection.language))")
    }

    /// Latin's share of online text is tiny (its prior is traffic.tsv's floor), so short Italian
    /// and Spanish strings that read as Latin too stay Italian and Spanish.
    @Test(arguments: [("Grazie mille", "it"), ("Va bene", "it"), ("De nada", "es"), ("Buenos días", "es")])
    func shortRomanceStringsStayInTheirLanguage(text: String, expected: String) async {
        let detection = await GlossaDetector().detect([text])[0]
        #expect(detection.language == LanguageCode(stringLiteral: expected), "\(text) → \(String(describing: detection.language))")
    }

    @Test func latinIsNamed() {
        #expect(ModelDetector().models("la"))
        #expect(LanguageCode(stringLiteral: "la").displayName() == "Latin")
    }
}

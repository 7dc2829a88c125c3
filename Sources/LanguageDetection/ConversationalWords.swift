import Foundation
import TranslationCore

/// Greetings, thanks and other conversational words, the words a translation service sees
/// alone ("Hola", "Merci", "Привет") and that FLORES, being news and travel prose, hardly
/// contains. Written for Glossa (not taken from any list); deliberately small, and limited to
/// words typical of their languages: no yes/no words, which many languages share.
///
/// A word in the text that a language lists gives that language ``odds`` in the fallback's
/// naive Bayes; a word several languages list (Spanish and Catalan "hola") favours them all and
/// the n-grams decide between them.
enum ConversationalWords {
    /// Prior odds per listed word of the text.
    static let odds = 30.0

    /// Language → lower-case words (NFC).
    static let lists: [LanguageCode: [String]] = [
        "en": ["hello", "hi", "thanks", "thank", "please", "goodbye", "bye", "sorry", "welcome", "cheers"],
        "es": ["hola", "gracias", "adiós", "buenos", "buenas", "perdón", "bienvenido", "bienvenida"],
        "ca": ["hola", "gràcies", "adéu", "bona", "bones", "sisplau", "benvingut", "benvinguda"],
        "gl": ["ola", "grazas", "adeus", "bos", "boas", "benvido", "benvida"],
        "pt": ["olá", "obrigado", "obrigada", "tchau", "adeus", "desculpe", "bem-vindo"],
        "fr": ["bonjour", "bonsoir", "merci", "salut", "revoir", "beaucoup", "bienvenue", "pardon"],
        "it": ["ciao", "grazie", "prego", "buongiorno", "buonasera", "arrivederci", "benvenuto", "scusa"],
        "de": ["hallo", "danke", "bitte", "tschüss", "guten", "willkommen", "entschuldigung"],
        "nl": ["hallo", "dank", "bedankt", "goedemorgen", "goedendag", "alsjeblieft", "doei", "welkom"],
        "sv": ["hej", "tack", "hejdå", "välkommen", "snälla"],
        "da": ["hej", "tak", "farvel", "velkommen", "godmorgen"],
        "nb": ["hei", "takk", "hadet", "velkommen"],
        "nn": ["hei", "takk", "velkomen"],
        "is": ["halló", "takk", "bless", "velkomin"],
        "af": ["hallo", "dankie", "asseblief", "totsiens", "welkom"],
        "ru": ["привет", "здравствуйте", "спасибо", "пожалуйста", "пока", "извините"],
        "uk": ["привіт", "дякую", "будь", "ласка", "вітаю", "бувай"],
        "bg": ["здравей", "здравейте", "благодаря", "моля", "довиждане"],
        "mk": ["здраво", "благодарам", "фала", "молам"],
        "sr": ["здраво", "хвала", "молим", "довиђења"],
        "hr": ["bok", "hvala", "molim", "doviđenja"],
        "bs": ["zdravo", "hvala", "molim", "doviđenja"],
        "eu": ["kaixo", "eskerrik", "agur", "mesedez"],
        "eo": ["saluton", "dankon", "bonvolu", "ĝis"],
        "oc": ["bonjorn", "mercé", "mercés", "adieu", "adiu"],
        "ast": ["hola", "gracies", "adiós", "bones"],
        "id": ["halo", "terima", "kasih", "selamat", "tolong"],
        "ms": ["helo", "terima", "kasih", "selamat", "tolong"],
    ]

    /// Word → the languages that list it.
    private static let index: [String: [LanguageCode]] = {
        var index: [String: [LanguageCode]] = [:]
        for (language, words) in lists { for word in words { index[word, default: []].append(language) } }
        return index
    }()

    /// Priors for the listed words of `text` (one entry per word and language), at most
    /// `wordLimit` words looked at: only short text reaches the fallback, and one or two
    /// conversational words in a long text say little.
    static func priors(for text: String, wordLimit: Int = 8) -> [(LanguageCode, Double)] {
        let words = text.precomposedStringWithCanonicalMapping.lowercased()
            .split { !NGramFeatures.isWordScalar($0.unicodeScalars.first!) && $0 != "-" }
        guard words.count <= wordLimit else { return [] }
        return words.flatMap { word in (index[String(word)] ?? []).map { ($0, odds) } }
    }
}

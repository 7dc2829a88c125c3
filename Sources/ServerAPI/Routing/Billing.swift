import Documents
import Foundation
import GlossaWire

/// How the protocols count the characters a request is billed: Unicode code points of the source
/// texts, whitespace included, as Google ("characters (code points)", §1.5 of the wire-format
/// reference), DeepL ("characters counted in code points", §6.6) and LibreTranslate (Python's
/// `len`) count them. Only the texts to translate (or, for Google, to detect) are billed, not
/// parameters such as DeepL's `context`.
enum Billing {
    /// The code points of every value of the parameter `name` (a repeated or list parameter
    /// counts every text); 0 when the request cannot be parsed (the handler refuses it, unbilled).
    static func codePoints(of name: String) -> @Sendable (RoutedRequest) -> Int {
        { request in
            guard let parameters = try? request.parameters() else { return 0 }
            return parameters.all(name).reduce(0) { $0 + codePoints($1) }
        }
    }

    /// The code points of one text: what every protocol bills for it.
    static func codePoints(_ text: String) -> Int { text.unicodeScalars.count }

    /// The code points of the text of the document uploaded as `field` (``OpenedDocument/billedCharacters``);
    /// 0 when there is no such upload or it cannot be read (the handler refuses it, unbilled).
    /// The document is opened in the request's facts, where the endpoint finds it opened.
    static func document(field name: String, translator: DocumentTranslator) -> @Sendable (RoutedRequest) -> Int {
        { request in
            guard let parameters = try? request.parameters(), let file = parameters.file(name) else { return 0 }
            return (try? request.facts.document { () throws(DocumentError) in try translator.open(file.bytes) })?.billedCharacters ?? 0
        }
    }

    /// The code points of the JSON body's field `name`, a string or a list of strings, for
    /// endpoints that read their JSON body themselves (Google v3's `contents`, `content`); 0 when
    /// the body is not such JSON (the handler refuses it, unbilled).
    static func jsonCodePoints(of name: String) -> @Sendable (RoutedRequest) -> Int {
        { request in
            guard let body = try? JSON.parse(request.http.body), let value = body[name] else { return 0 }
            switch value {
            case .string(let text): return codePoints(text)
            case .array(let items): return items.reduce(0) { if case .string(let t) = $1 { $0 + codePoints(t) } else { $0 } }
            default: return 0
            }
        }
    }

    /// The code points of the text of a document sent inline in a JSON body, as base64 at
    /// `object.field` (Google v3's `documentInputConfig.content`); 0 when there is none or it
    /// cannot be read (the handler refuses it, unbilled).
    static func jsonDocument(_ object: String, _ field: String, translator: DocumentTranslator) -> @Sendable (RoutedRequest) -> Int {
        { request in
            guard let body = try? JSON.parse(request.http.body), case .string(let encoded)? = body[object]?[field],
                  let data = Data(base64Encoded: encoded) else { return 0 }
            return (try? request.facts.document { () throws(DocumentError) in try translator.open([UInt8](data)) })?.billedCharacters ?? 0
        }
    }
}

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
            return parameters.all(name).reduce(0) { $0 + $1.unicodeScalars.count }
        }
    }
}

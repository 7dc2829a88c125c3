import Documents
import Foundation
import GlossaWire
import HTTPServer
import TranslationCore

/// APy's `/translateDoc` and `/translatePage` (`translate_doc.py`, `translate_webpage.py`).
extension APyAPI {
    static let fileTooLarge = "That file is too large"

    func translateDoc(_ request: RoutedRequest) async throws -> EndpointResult {
        let p = try documentParameters(request)
        let (source, target) = try installedPair(try Self.required(p, "langpair"))
        // APy answers a request without a file with a 500 (a KeyError); Tornado's words are clearer.
        guard let file = p.file("file") else { throw APIError.missingParameter("file") }
        guard file.bytes.count <= documents.maxBytes else { throw APIError(.payloadTooLarge(limit: documents.maxBytes), Self.fileTooLarge) }
        do {
            let (document, _) = try await documents.translate(try documents.open(file.bytes, for: request), from: source, to: target, markUnknownWords: Self.marksUnknown(p, ignoringCase: true))
            let response = HTTPResponse(status: 200, headers: ["Content-Type": document.format.mimeType,
                                                               "Content-Disposition": "attachment"], body: document.bytes)
            return EndpointResult(response: response, characters: request.billedCharacters)
        } catch let error as DocumentError {
            throw Self.apyError(error)
        }
    }

    /// The parameters, with APy's words for a body over the limit.
    private func documentParameters(_ request: RoutedRequest) throws -> Parameters {
        let parsed = Result { () throws(APIError) -> Parameters in try request.parameters() }
        switch parsed {
        case .success(let parameters): return parameters
        case .failure(let error):
            if case .payloadTooLarge = error.code { throw APIError(.payloadTooLarge(limit: documents.maxBytes), Self.fileTooLarge) }
            throw error
        }
    }

    /// The refusal of a page fetch from a host the operator did not allow.
    static func fetchRefused(_ host: String) -> APIError {
        APIError.forbidden("Fetching pages from \(host) is not allowed on this server (glossa serve --allow-fetch \(host) allows it).")
    }

    /// A document failure in APy's words.
    static func apyError(_ error: DocumentError) -> APIError {
        switch error.code {
        case .unsupportedType: return badRequest("Invalid file type \(error.mimeType ?? "application/octet-stream")")
        case .tooLarge: return APIError(.payloadTooLarge(limit: 0), fileTooLarge)
        case .damaged: return badRequest(error.message)
        }
    }

    /// `langpair` naming a pair that is installed, as APy's document and page handlers require.
    func installedPair(_ text: String) throws -> (LanguageCode, LanguageCode) {
        let (source, target) = try pair(text)
        guard let source, service.route(from: source, to: target) != nil else { throw Self.badRequest(Self.pairNotInstalled) }
        return (source, target)
    }

    func translatePage(_ request: RoutedRequest) async throws -> EndpointResult {
        let p = try request.parameters()
        let (source, target) = try installedPair(try Self.required(p, "langpair"))
        // Counted as APy counts it: once the pair is known, before the URL is read or fetched.
        stats.noteUse("\(source.apertiumCode)-\(target.apertiumCode)")
        var address = try Self.required(p, "url")
        if !address.hasPrefix("http") { address = "http://" + address }
        guard let url = URL(string: address), url.host != nil else {
            throw APIError.notFound(path: "").withMessage("Error 404 on fetching url: invalid URL \(address)")
        }
        let page: [UInt8], base: URL
        do { (page, base) = try await fetcher.fetch(url) } catch {
            switch error {
            case .notAllowed(let blocked):
                throw Self.fetchRefused(blocked)
            case .failed(let why):
                throw APIError.notFound(path: "").withMessage("Error 404 on fetching url: \(why)")
            }
        }
        let html = APyPage.prepare(page, base: base)
        let start = ContinuousClock.now
        // APy translates pages without marks (`apertium -u -f html`), whatever markUnknown says.
        let result = try await translateOrRefuse([html], from: source, to: target, options: TranslationOptions(format: .html))[0]
        stats.noteTranslation(start: start, characters: Billing.codePoints(html))
        let body = AjaxEnvelope.success(.object([("translatedText", .string(result.translatedText))]))
        return EndpointResult(response: APyEnvelope.render(body, request: request.http), characters: Billing.codePoints(html))
    }
}

extension APIError {
    /// The same error with another message.
    func withMessage(_ message: String) -> APIError { APIError(code, message) }
}

/// A fetched page made ready for translation as APy makes it (`html_to_text`, `clean_html`):
/// decoded, entities resolved, soft hyphens removed, relative links made absolute.
enum APyPage {
    static func prepare(_ bytes: [UInt8], base: URL) -> String {
        var text = String(validating: bytes, as: UTF8.self)
            ?? String(data: Data(bytes), encoding: .windowsCP1252) ?? String(decoding: bytes, as: UTF8.self)
        text = text.replacing("&#150;", with: "&#8211;")
        text = HTMLUnescape.unescape(text).replacing("\u{00AD}", with: "")
        return absoluteLinks(text, base: base)
    }

    /// ` (href|src)=(['"])(..*?)\2` with each link that has no host given the page's scheme and host.
    static func absoluteLinks(_ text: String, base: URL) -> String {
        guard let regex = try? Regex(#" (href|src)=(['"])(..*?)\2"#) else { return text }
        return text.replacing(regex) { match in
            let attribute = match.output[1].substring.map(String.init) ?? ""
            let quote = match.output[2].substring.map(String.init) ?? "\""
            let link = match.output[3].substring.map(String.init) ?? ""
            return " \(attribute)=\(quote)\(absolute(link, base: base))\(quote)"
        }
    }

    /// Python's `urlunsplit((base.scheme, base.netloc, path, query, fragment))` for a link
    /// without a host; links with one stay as they are.
    static func absolute(_ link: String, base: URL) -> String {
        var rest = Substring(link)
        var fragment: Substring?, query: Substring?
        if let hash = rest.firstIndex(of: "#") { fragment = rest[rest.index(after: hash)...]; rest = rest[..<hash] }
        if let mark = rest.firstIndex(of: "?") { query = rest[rest.index(after: mark)...]; rest = rest[..<mark] }
        // A scheme (`mailto:`) or a host (`//cdn…`, `http://…`) means the link is not relative.
        if let colon = rest.firstIndex(of: ":"), rest[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }),
           !rest[..<colon].isEmpty {
            let afterScheme = rest[rest.index(after: colon)...]
            if afterScheme.hasPrefix("//") { return link }
            rest = afterScheme
        }
        if rest.hasPrefix("//") { return link }
        var out = "\(base.scheme ?? "http")://\(base.host ?? "")\(base.port.map { ":\($0)" } ?? "")"
        if !rest.isEmpty { out += rest.hasPrefix("/") ? String(rest) : "/" + rest }
        if let query, !query.isEmpty { out += "?" + query }
        if let fragment, !fragment.isEmpty { out += "#" + fragment }
        return out
    }
}

/// Python's `html.unescape` for the references pages use: numeric ones and the common names.
enum HTMLUnescape {
    static let names: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}", "copy": "©", "reg": "®",
        "trade": "™", "hellip": "…", "mdash": "—", "ndash": "–", "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”",
        "laquo": "«", "raquo": "»", "euro": "€", "pound": "£", "yen": "¥", "cent": "¢", "deg": "°", "middot": "·",
        "bull": "•", "times": "×", "divide": "÷", "plusmn": "±", "sect": "§", "para": "¶", "iexcl": "¡", "iquest": "¿",
        "shy": "\u{AD}", "ordf": "ª", "ordm": "º", "szlig": "ß", "aelig": "æ", "AElig": "Æ", "oelig": "œ", "OElig": "Œ",
        "ccedil": "ç", "Ccedil": "Ç", "ntilde": "ñ", "Ntilde": "Ñ", "oslash": "ø", "Oslash": "Ø", "aring": "å", "Aring": "Å",
        "eth": "ð", "thorn": "þ", "yuml": "ÿ", "micro": "µ", "frac12": "½", "frac14": "¼", "frac34": "¾", "sup2": "²", "sup3": "³",
    ]
    private static let accents: [(String, [Character: Character])] = [
        ("grave", ["a": "à", "e": "è", "i": "ì", "o": "ò", "u": "ù", "A": "À", "E": "È", "I": "Ì", "O": "Ò", "U": "Ù"]),
        ("acute", ["a": "á", "e": "é", "i": "í", "o": "ó", "u": "ú", "y": "ý", "A": "Á", "E": "É", "I": "Í", "O": "Ó", "U": "Ú", "Y": "Ý"]),
        ("circ", ["a": "â", "e": "ê", "i": "î", "o": "ô", "u": "û", "A": "Â", "E": "Ê", "I": "Î", "O": "Ô", "U": "Û"]),
        ("uml", ["a": "ä", "e": "ë", "i": "ï", "o": "ö", "u": "ü", "A": "Ä", "E": "Ë", "I": "Ï", "O": "Ö", "U": "Ü"]),
        ("tilde", ["a": "ã", "o": "õ", "A": "Ã", "O": "Õ"]),
    ]

    static func resolve(_ name: Substring) -> String? {
        if name.hasPrefix("#") {
            let digits = name.dropFirst()
            let value = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
            return value.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
        }
        if let known = names[String(name)] { return known }
        for (suffix, table) in accents where name.count == suffix.count + 1 && name.hasSuffix(suffix) {
            if let letter = name.first, let accented = table[letter] { return String(accented) }
        }
        return nil
    }

    static func unescape(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            if let semi = after.prefix(32).firstIndex(of: ";"), let value = resolve(after[..<semi]) {
                out += value
                rest = after[after.index(after: semi)...]
            } else {
                out += "&"
                rest = after
            }
        }
        return out + rest
    }
}

import GlossaWire
import HTTPServer

/// A request's parameters, merged liberally from every place clients put them: the query string,
/// then a form body or a JSON body (object, possibly wrapped as `{"data": {...}}`). JSON `null`
/// means absent; a JSON array gives a repeated parameter (and ``isList(_:)`` says so); numbers
/// and booleans become their text.
struct Parameters: Sendable {
    private var values: [String: [String]] = [:]
    private var lists: Set<String> = []
    /// Files of a `multipart/form-data` body, by field name.
    private var uploads: [String: [UploadedFile]] = [:]
    /// Whether the body was JSON (LibreTranslate reads only the JSON body then, as Flask does).
    private(set) var fromJSON = false

    /// Every value of `name`, query first, then body, in order.
    func all(_ name: String) -> [String] { values[name] ?? [] }

    /// The last value of `name` (body wins over query), nil when absent.
    func last(_ name: String) -> String? { values[name]?.last }

    /// The last file uploaded as `name` (a multipart body), nil when none was.
    func file(_ name: String) -> UploadedFile? { uploads[name]?.last }

    /// Whether `name` appears at all.
    func has(_ name: String) -> Bool { values[name] != nil }

    /// Refuses a request that repeats `name` where one value is read: Glossa never keeps one
    /// value and drops the others (APy and AJAX v1 silently keep the last).
    /// - Throws: ``APIError`` invalid argument, saying how many were given and `accepted`.
    func requireSingle(_ name: String, accepted: String) throws(APIError) {
        let count = all(name).count
        guard count <= 1 else {
            throw APIError.translation(.invalidArgument(name, given: "\(count) values", accepted: accepted))
        }
    }

    /// Whether `name` was a JSON array in the body (a batch), as opposed to a single value.
    func isList(_ name: String) -> Bool { lists.contains(name) }

    mutating func add(_ name: String, _ value: String) { values[name, default: []].append(value) }

    /// Reads the query and, by `input`, the body.
    /// - Throws: ``APIError`` for an oversize, malformed or non-UTF-8 request.
    static func parse(_ request: HTTPRequest, input: ParameterInput) throws(APIError) -> Parameters {
        try parse(DecodedRequest(request), input: input)
    }

    /// As ``parse(_:input:)-(HTTPRequest,_)``, from the request's decodings (shared with the route
    /// table's claims, so a body is decoded once).
    static func parse(_ decoded: DecodedRequest, input: ParameterInput) throws(APIError) -> Parameters {
        let request = decoded.http
        switch input {
        case .none: return Parameters()
        case .queryAndForm: return try parse(decoded, json: false)
        case .queryFormOrJSON: return try parse(decoded, json: true)
        case .upload: return try parse(decoded, json: false, multipart: true)
        case .uploadOrJSON: return try parse(decoded, json: true, multipart: true)
        case .queryAndOwnJSON:
            if case .tooLarge(let limit) = request.bodyStatus { throw .payloadTooLarge(limit: limit) }
            var parameters = Parameters()
            for (name, value) in try decoded.queryParameters() { parameters.add(name, value) }
            return parameters
        }
    }

    /// Reads the query and the body. `json` says whether a JSON body is accepted (APy and
    /// AJAX v1 take only query and form).
    /// - Throws: ``APIError`` for an oversize, malformed or non-UTF-8 request.
    static func parse(_ request: HTTPRequest, json: Bool, multipart: Bool = false) throws(APIError) -> Parameters {
        try parse(DecodedRequest(request), json: json, multipart: multipart)
    }

    private static func parse(_ decoded: DecodedRequest, json: Bool, multipart: Bool = false) throws(APIError) -> Parameters {
        let request = decoded.http
        if case .tooLarge(let limit) = request.bodyStatus { throw .payloadTooLarge(limit: limit) }
        var parameters = Parameters()
        for (name, value) in try decoded.queryParameters() {
            parameters.add(name, value)
        }
        guard !request.body.isEmpty else { return parameters }
        let contentType = (request.headers["Content-Type"] ?? "").lowercased()
        let looksJSON = request.body.first { ![9, 10, 13, 32].contains($0) } == UInt8(ascii: "{")
        if contentType.hasPrefix("application/json") || (json && looksJSON && !contentType.hasPrefix("application/x-www-form-urlencoded")) {
            guard json else {
                throw .malformedBody(.unsupportedEncoding, "This endpoint takes parameters in the query string or a form body (application/x-www-form-urlencoded), not JSON.")
            }
            try parameters.addJSON(request.body)
        } else if multipart, contentType.hasPrefix("multipart/form-data") {
            let form = try decoded.multipartForm()
            for (name, value) in form.fields { parameters.add(name, value) }
            for (name, file) in form.files { parameters.uploads[name, default: []].append(file) }
        } else if contentType.hasPrefix("multipart/") {
            throw .malformedBody(.unsupportedEncoding, "\(contentType.prefix { $0 != ";" }) bodies are not accepted here; send application/x-www-form-urlencoded\(json ? " or application/json" : "").")
        } else {
            for (name, value) in try decoded.formParameters() { parameters.add(name, value) }
        }
        return parameters
    }

    private mutating func addJSON(_ body: [UInt8]) throws(APIError) {
        guard String(validating: body, as: UTF8.self) != nil else {
            throw .malformedBody(.invalidJSON, "Invalid JSON payload received: the body is not valid UTF-8.")
        }
        let parsed: JSON
        do { parsed = try JSON.parse(body) } catch {
            throw .malformedBody(.invalidJSON, "Invalid JSON payload received: the body is not well-formed JSON.")
        }
        guard case .object(var members) = parsed else {
            throw .malformedBody(.notAnObject, "Invalid JSON payload received: expected an object like {\"q\": [...], \"target\": \"es\"}.")
        }
        fromJSON = true
        // google-api-python-client wraps bodies as {"data": {...}} (its discovery "dataWrapper").
        if case .object(let inner)? = parsed["data"], parsed["q"] == nil { members = inner }
        for (name, value) in members {
            switch value {
            case .null: continue
            case .array(let items):
                lists.insert(name)
                if values[name] == nil { values[name] = [] }  // an empty list is present, with no values
                for item in items {
                    guard let text = Self.scalarText(item) else {
                        throw .malformedBody(.badValue, "Invalid JSON payload received: '\(name)' must be a string or a list of strings.")
                    }
                    add(name, text)
                }
            default:
                guard let text = Self.scalarText(value) else {
                    throw .malformedBody(.badValue, "Invalid JSON payload received: '\(name)' must be a string or a list of strings.")
                }
                add(name, text)
            }
        }
    }

    private static func scalarText(_ value: JSON) -> String? {
        switch value {
        case .string(let s): return s
        case .int(let i): return String(i)
        case .double(let d): return JSON.number(d)
        case .bool(let b): return b ? "true" : "false"
        default: return nil
        }
    }
}

/// Cheap looks at a request before its endpoint is chosen (two dialects sharing a path).
enum RequestPeek {
    /// Whether `name` is in the query string or a form body (not JSON).
    static func hasFormParameter(_ decoded: DecodedRequest, _ name: String) -> Bool {
        let request = decoded.http
        if let query = try? decoded.queryParameters(), query.contains(where: { $0.0 == name }) {
            return true
        }
        let contentType = (request.headers["Content-Type"] ?? "").lowercased()
        guard !request.body.isEmpty, !contentType.hasPrefix("application/json") else { return false }
        if contentType.hasPrefix("multipart/form-data") {
            guard let form = try? decoded.multipartForm() else { return false }
            return form.fields.contains { $0.0 == name }
        }
        return (try? decoded.formParameters())?.contains { $0.0 == name } ?? false
    }
}

import HTTPServer

/// A request's parameters, merged liberally from every place clients put them: the query string,
/// then a form body or a JSON body (object, possibly wrapped as `{"data": {...}}`). JSON `null`
/// means absent; a JSON array gives a repeated parameter; numbers and booleans become their text.
struct Parameters: Sendable {
    private var values: [String: [String]] = [:]

    /// Every value of `name`, query first, then body, in order.
    func all(_ name: String) -> [String] { values[name] ?? [] }

    /// The last value of `name` (body wins over query), nil when absent.
    func last(_ name: String) -> String? { values[name]?.last }

    /// Whether `name` appears at all.
    func has(_ name: String) -> Bool { values[name] != nil }

    mutating func add(_ name: String, _ value: String) { values[name, default: []].append(value) }

    /// Reads the query and the body. `json` says whether a JSON body is accepted (APy and
    /// AJAX v1 take only query and form).
    /// - Throws: ``APIError`` for an oversize, malformed or non-UTF-8 request.
    static func parse(_ request: HTTPRequest, json: Bool) throws(APIError) -> Parameters {
        if case .tooLarge(let limit) = request.bodyStatus { throw .payloadTooLarge(limit: limit) }
        var parameters = Parameters()
        for (name, value) in try FormDecoding.parse(Array(request.query.utf8), what: "query string") {
            parameters.add(name, value)
        }
        guard !request.body.isEmpty else { return parameters }
        let contentType = (request.headers["Content-Type"] ?? "").lowercased()
        let looksJSON = request.body.first { ![9, 10, 13, 32].contains($0) } == UInt8(ascii: "{")
        if contentType.hasPrefix("application/json") || (json && looksJSON && !contentType.hasPrefix("application/x-www-form-urlencoded")) {
            guard json else { throw .malformedBody("This endpoint takes parameters in the query string or a form body (application/x-www-form-urlencoded), not JSON.") }
            try parameters.addJSON(request.body)
        } else if contentType.hasPrefix("multipart/") {
            throw .malformedBody("multipart bodies are not accepted; send application/x-www-form-urlencoded\(json ? " or application/json" : "").")
        } else {
            for (name, value) in try FormDecoding.parse(request.body, what: "form body") { parameters.add(name, value) }
        }
        return parameters
    }

    private mutating func addJSON(_ body: [UInt8]) throws(APIError) {
        guard String(validating: body, as: UTF8.self) != nil else {
            throw .malformedBody("Invalid JSON payload received: the body is not valid UTF-8.")
        }
        let parsed: JSON
        do { parsed = try JSON.parse(body) } catch {
            throw .malformedBody("Invalid JSON payload received: the body is not well-formed JSON.")
        }
        guard case .object(var members) = parsed else {
            throw .malformedBody("Invalid JSON payload received: expected an object like {\"q\": [...], \"target\": \"es\"}.")
        }
        // google-api-python-client wraps bodies as {"data": {...}} (its discovery "dataWrapper").
        if case .object(let inner)? = parsed["data"], parsed["q"] == nil { members = inner }
        for (name, value) in members {
            switch value {
            case .null: continue
            case .array(let items):
                for item in items {
                    guard let text = Self.scalarText(item) else {
                        throw .malformedBody("Invalid JSON payload received: '\(name)' must be a string or a list of strings.")
                    }
                    add(name, text)
                }
            default:
                guard let text = Self.scalarText(value) else {
                    throw .malformedBody("Invalid JSON payload received: '\(name)' must be a string or a list of strings.")
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

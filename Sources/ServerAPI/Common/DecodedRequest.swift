import HTTPServer
import Synchronization

/// One request's query string, form body and multipart body, each decoded on first use only:
/// the route table's claims (APy's `/translate` is the one with `langpair`) and the endpoint's
/// ``Parameters`` read the same decoding, where each decoded the body for itself before.
final class DecodedRequest: Sendable {
    typealias Pairs = [(String, String)]
    typealias Multipart = (fields: [(String, String)], files: [(String, UploadedFile)])

    /// The request as received.
    let http: HTTPRequest
    private let query = Mutex<Result<Pairs, APIError>?>(nil)
    private let form = Mutex<Result<Pairs, APIError>?>(nil)
    private let multipart = Mutex<Result<Multipart, APIError>?>(nil)

    init(_ http: HTTPRequest) {
        self.http = http
    }

    /// The query string's parameters.
    func queryParameters() throws(APIError) -> Pairs {
        try computedOnce(query) { () throws(APIError) in try FormDecoding.parse(Array(http.query.utf8), what: "query string") }
    }

    /// The body's parameters read as `application/x-www-form-urlencoded`.
    func formParameters() throws(APIError) -> Pairs {
        try computedOnce(form) { () throws(APIError) in try FormDecoding.parse(http.body, what: "form body") }
    }

    /// The body read as `multipart/form-data`, by the request's `Content-Type`.
    func multipartForm() throws(APIError) -> Multipart {
        try computedOnce(multipart) { () throws(APIError) in
            try MultipartForm.parse(http.body, contentType: http.headers["Content-Type"] ?? "")
        }
    }
}

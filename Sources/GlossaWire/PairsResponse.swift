/// The body of `GET /glossa/v1/pairs`: every direction the server translates, direct or through
/// a pivot, so a remote client can answer "is this pair installed?" without translating.
///
/// ```json
/// {"pairs": [{"source": "en", "target": "es", "path": ["en", "es"]},
///            {"source": "en", "target": "pt", "path": ["en", "es", "pt"]}]}
/// ```
public struct PairsResponse: Codable, Sendable, Equatable {
    /// One translatable direction.
    public struct Pair: Codable, Sendable, Equatable {
        /// Source language, BCP-47.
        public var source: String
        /// Target language, BCP-47.
        public var target: String
        /// The languages visited, source first; more than two means a pivot.
        public var path: [String]

        /// Makes a pair.
        public init(source: String, target: String, path: [String]) {
            self.source = source
            self.target = target
            self.path = path
        }
    }

    /// The directions, direct pairs first.
    public var pairs: [Pair]

    /// Makes a response.
    public init(pairs: [Pair]) { self.pairs = pairs }
}

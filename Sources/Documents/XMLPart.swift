/// One XML part of a document (docx's `word/document.xml`, an odt's `content.xml`): its
/// paragraphs as segments, and the part rebuilt with their translations.
struct XMLPart {
    private let bytes: [UInt8]
    private let tokens: [XMLScanner.Token]
    /// For each segment, the tokens (text nodes) its pieces came from.
    private var pieceTokens: [[Int]] = []
    /// The paragraphs, in the order they close.
    private(set) var segments: [Segment] = []

    private struct Frame {
        var name: XMLTextRules.Name
        var roles: XMLTextRules.Roles
        var namespaces: [(String, String)]
        /// The open paragraph this element is, as an index into `open`.
        var paragraph: Int?
    }

    private struct OpenParagraph {
        var pieces: [String] = []
        var tokens: [Int] = []
        var joinable: [Bool] = []
        /// Whether a separator came after the last piece.
        var separated = false
    }

    /// Reads the paragraphs of `bytes` by `rules`.
    init(bytes: [UInt8], rules: XMLTextRules) {
        self.bytes = bytes
        self.tokens = XMLScanner.tokens(bytes)
        var stack: [Frame] = []
        var open: [OpenParagraph] = []
        var excludedDepth = 0
        let roles = rules.roles
        // ODF has no text elements: all character data inside a paragraph is text.
        let everyTextIsText = rules.textElements == nil

        func resolve(_ qualified: String, extra: [(String, String)]) -> XMLTextRules.Name {
            let colon = qualified.firstIndex(of: ":")
            let prefix = colon.map { String(qualified[..<$0]) } ?? ""
            let local = colon.map { String(qualified[qualified.index(after: $0)...]) } ?? qualified
            if let uri = extra.last(where: { $0.0 == prefix })?.1 { return .init(namespace: uri, local: local) }
            for frame in stack.reversed() {
                if let uri = frame.namespaces.last(where: { $0.0 == prefix })?.1 { return .init(namespace: uri, local: local) }
            }
            return .init(namespace: "", local: local)
        }
        // Names already resolved, with their roles, by qualified name, under the declarations in
        // force. A part declares its namespaces on its root element almost always, so each
        // element name is resolved once per part instead of once per tag. Emptied when an
        // element that declares namespaces opens or closes: a prefix may then mean another one.
        var resolved: [String: (name: XMLTextRules.Name, roles: XMLTextRules.Roles)] = [:]
        func lookup(_ qualified: String, declaring declarations: [(String, String)]) -> (name: XMLTextRules.Name, roles: XMLTextRules.Roles) {
            if declarations.isEmpty, let known = resolved[qualified] { return known }
            let name = resolve(qualified, extra: declarations)
            let entry = (name: name, roles: roles[name] ?? [])
            if declarations.isEmpty { resolved[qualified] = entry }
            return entry
        }
        func finish(_ frame: Frame) {
            if !frame.namespaces.isEmpty { resolved.removeAll(keepingCapacity: true) }
            if frame.roles.contains(.excluded) { excludedDepth -= 1 }
            guard frame.paragraph != nil, let paragraph = open.popLast() else { return }
            if !paragraph.pieces.isEmpty {
                segments.append(Segment(kind: .pieces, pieces: paragraph.pieces, joinable: paragraph.joinable))
                pieceTokens.append(paragraph.tokens)
            }
            if !open.isEmpty { open[open.count - 1].separated = true }
        }

        for (index, token) in tokens.enumerated() {
            switch token.kind {
            case .text:
                guard excludedDepth == 0, !open.isEmpty else { continue }
                if !everyTextIsText {
                    guard let top = stack.last, top.roles.contains(.text) else { continue }
                }
                var paragraph = open[open.count - 1]
                if !paragraph.pieces.isEmpty { paragraph.joinable.append(!paragraph.separated) }
                paragraph.pieces.append(XMLText.unescape(bytes[token.range]))
                paragraph.tokens.append(index)
                paragraph.separated = false
                open[open.count - 1] = paragraph
            case .start(let qualified, let selfClosing):
                let declarations = XMLScanner.namespaceDeclarations(bytes, token.range)
                if !declarations.isEmpty { resolved.removeAll(keepingCapacity: true) }
                let (name, role) = lookup(qualified, declaring: declarations)
                if role.contains(.separator), !open.isEmpty { open[open.count - 1].separated = true }
                if role.contains(.excluded) { excludedDepth += 1 }
                var frame = Frame(name: name, roles: role, namespaces: declarations, paragraph: nil)
                if role.contains(.paragraph), excludedDepth == 0 {
                    if !open.isEmpty { open[open.count - 1].separated = true }
                    open.append(OpenParagraph())
                    frame.paragraph = open.count - 1
                }
                if selfClosing { finish(frame) } else { stack.append(frame) }
            case .end(let qualified):
                let name = lookup(qualified, declaring: []).name
                // Pop to the matching element; a stray end tag (malformed input) pops nothing.
                guard let match = stack.lastIndex(where: { $0.name == name }) else { continue }
                let role = stack[match].roles
                while stack.count > match { finish(stack.removeLast()) }
                if role.contains(.separator), !open.isEmpty { open[open.count - 1].separated = true }
            case .other:
                continue
            }
        }
        while let frame = stack.popLast() { finish(frame) }
    }

    /// The part with each segment's pieces replaced by `translations` (one array of pieces per
    /// segment, as many as it has). A piece that comes back unchanged keeps its original bytes.
    func rebuilt(with translations: [[String]]) -> [UInt8] {
        var replacement: [Int: String] = [:]
        for (segment, pieces) in zip(pieceTokens.indices, translations) {
            for (k, token) in pieceTokens[segment].enumerated() where k < pieces.count && pieces[k] != segments[segment].pieces[k] {
                replacement[token] = pieces[k]
            }
        }
        guard !replacement.isEmpty else { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 8)
        for (index, token) in tokens.enumerated() {
            if let text = replacement[index] { out += XMLText.escape(text) } else { out += bytes[token.range] }
        }
        return out
    }
}

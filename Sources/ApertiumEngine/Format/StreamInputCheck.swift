import TranslationCore

/// Checks Apertium stream format that a caller gives as it is (APy's `/generate` input) before it
/// reaches a warm pipeline.
///
/// Why: the Apertium tools read a lexical unit up to its `$`, a tag up to its `>` (past any `$`),
/// and a `\` together with the byte after it. Input that ends inside a unit (`^a<b$`, `^a`, `^a\`)
/// makes lt-proc read on past the frame's closing NUL and wait for input that never comes: the
/// request would hang until the pipeline's deadline, twice (the retry), then fail with a 503 and
/// two pipeline restarts. Refused at once instead, saying where. Malformed input that does end
/// (a stray `$`, a `[` without `]` outside units) is left to the tools, as APy leaves it.
enum StreamInputCheck {
    /// nil when `bytes` ends outside every lexical unit, else what is left open.
    static func problem(in bytes: [UInt8]) -> String? {
        let caret = UInt8(ascii: "^"), dollar = UInt8(ascii: "$"), backslash = UInt8(ascii: "\\")
        let open = UInt8(ascii: "<"), close = UInt8(ascii: ">")
        var unitStart: Int?
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            if byte == backslash {
                if i + 1 >= bytes.count, unitStart != nil { return "it ends with a \\ that escapes nothing" }
                i += 2
                continue
            }
            if let start = unitStart {
                if byte == open {
                    // A tag runs to its `>` (escapes honoured), whatever lies between.
                    var j = i + 1
                    while j < bytes.count, bytes[j] != close { j += bytes[j] == backslash ? 2 : 1 }
                    guard j < bytes.count else {
                        return "the tag opened with < at character \(characterOffset(bytes, i) + 1) is never closed with > (the lexical unit opened with ^ at character \(characterOffset(bytes, start) + 1) cannot end)"
                    }
                    i = j + 1
                    continue
                }
                if byte == dollar { unitStart = nil }
            } else if byte == caret {
                unitStart = i
            }
            i += 1
        }
        if let start = unitStart {
            return "the lexical unit opened with ^ at character \(characterOffset(bytes, start) + 1) is never closed with $"
        }
        return nil
    }

    /// Refuses `bytes` with ``TranslationError/Kind/invalidInput`` when ``problem(in:)`` finds one.
    static func check(_ bytes: [UInt8]) throws {
        if let problem = problem(in: bytes) {
            throw TranslationError(.invalidInput, "The input is not complete Apertium stream format: \(problem). Write a literal ^, $, <, > or \\ as \\^, \\$, \\<, \\> or \\\\.")
        }
    }

    /// Unicode scalars before byte `offset` (the position a user sees).
    private static func characterOffset(_ bytes: [UInt8], _ offset: Int) -> Int {
        bytes[..<offset].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
    }
}

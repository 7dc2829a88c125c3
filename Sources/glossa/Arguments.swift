/// A small command-line parser: `--flag`, `--option VALUE`, `--option=VALUE`, `-x VALUE` and
/// positionals; `--` ends options. Options, and how many positionals a command takes, are
/// declared up front, so a typo or a stray word is an error, never silently ignored.
struct Arguments {
    /// What went wrong while parsing; printed with the command's usage line.
    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    private(set) var flags: Set<String> = []
    private(set) var options: [String: [String]] = [:]
    private(set) var positionals: [String] = []

    /// Parses `arguments` given the options that take a value and the flags that do not.
    /// Short aliases map to long names (`["-t": "--to"]`). `positionals` is how many words
    /// besides options the command takes (default none); `--help` anywhere skips that check, so
    /// `glossa models install --help` shows help instead of asking for a file.
    init(_ arguments: [String], options valued: Set<String>, flags known: Set<String>,
         aliases: [String: String] = [:], positionals count: ClosedRange<Int> = 0...0,
         positionalName: String = "ARGUMENT") throws {
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if onlyPositionals || !word.hasPrefix("-") || word == "-" {
                positionals.append(word)
                continue
            }
            if word == "--" { onlyPositionals = true; continue }
            var name = word
            var inlineValue: String?
            if let eq = word.firstIndex(of: "="), word.hasPrefix("--") {
                name = String(word[..<eq])
                inlineValue = String(word[word.index(after: eq)...])
            }
            name = aliases[name] ?? name
            if valued.contains(name) {
                guard let value = inlineValue ?? (index < arguments.count ? arguments[index] : nil) else {
                    throw UsageError(description: "\(name) needs a value")
                }
                if inlineValue == nil { index += 1 }
                options[name, default: []].append(value)
            } else if known.contains(name), inlineValue == nil {
                flags.insert(name)
            } else {
                throw UsageError(description: "unknown option '\(word)'")
            }
        }
        if flags.contains("--help") { return }
        if positionals.count > count.upperBound {
            let extras = positionals[count.upperBound...]
            let extra = (extras.count == 1 ? "argument " : "arguments ") + extras.map { "'\($0)'" }.joined(separator: ", ")
            throw UsageError(description: count.upperBound == 0
                ? "unexpected \(extra); this command takes no arguments besides its options"
                : "unexpected \(extra); this command takes \(count.upperBound == 1 ? "one" : "at most \(count.upperBound)") \(positionalName)")
        }
        if positionals.count < count.lowerBound {
            throw UsageError(description: "missing \(positionalName)")
        }
    }

    /// Whether `--name` was given.
    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// The last value given for `--name`, if any.
    func value(_ name: String) -> String? { options[name]?.last }

    /// The value of `--name` as an integer in `range`, if given.
    func integer(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError(description: "\(name) takes a whole number in \(range.lowerBound)...\(range.upperBound), not '\(text)'")
        }
        return number
    }

    /// The value of `--name` as a decimal number, if given.
    func double(_ name: String) throws -> Double? {
        guard let text = value(name) else { return nil }
        guard let number = Double(text), number.isFinite else {
            throw UsageError(description: "\(name) takes a number, not '\(text)'")
        }
        return number
    }
}

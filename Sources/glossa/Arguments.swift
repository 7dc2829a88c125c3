/// A small command-line parser: `--flag`, `--option VALUE`, `--option=VALUE`, `-x VALUE` and
/// positionals; `--` ends options. Options are declared up front so a typo is an error, not a
/// silently ignored word.
struct Arguments {
    /// What went wrong while parsing; printed with the command's usage line.
    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    private(set) var flags: Set<String> = []
    private(set) var options: [String: [String]] = [:]
    private(set) var positionals: [String] = []

    /// Parses `arguments` given the options that take a value and the flags that do not.
    /// Short aliases map to long names (`["-t": "--to"]`).
    init(_ arguments: [String], options valued: Set<String>, flags known: Set<String>,
         aliases: [String: String] = [:]) throws {
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

/// The result of reading a command's arguments against its `CommandSpec`.
struct ParsedArguments: Sendable {
    var positionals: [String] = []
    private(set) var values: [String: [String]] = [:]
    private(set) var flags: Set<String> = []

    func has(_ name: String) -> Bool { flags.contains(name) || values[name] != nil }
    func value(_ name: String) -> String? { values[name]?.last }
    func allValues(_ name: String) -> [String] { values[name] ?? [] }

    mutating func set(_ option: OptionSpec, value: String?) {
        if let value { values[option.name, default: []].append(value) } else { flags.insert(option.name) }
    }
}

/// Reads `--opt value`, `--opt=value`, `-h`, `--` and positionals by hand, against a spec.
enum ArgumentReader {
    static func read(_ arguments: [String], spec: CommandSpec) throws -> ParsedArguments {
        let options = spec.options + GlobalOptions.all
        var parsed = ParsedArguments()
        var i = 0
        var onlyPositionals = false
        while i < arguments.count {
            let arg = arguments[i]
            i += 1
            if onlyPositionals || arg == "-" || !arg.hasPrefix("-") {
                parsed.positionals.append(arg)
                continue
            }
            if arg == "--" { onlyPositionals = true; continue }

            let option: OptionSpec
            var inlineValue: String?
            if arg.hasPrefix("--") {
                let body = arg.dropFirst(2)
                let name: Substring
                if let eq = body.firstIndex(of: "=") {
                    name = body[..<eq]; inlineValue = String(body[body.index(after: eq)...])
                } else {
                    name = body
                }
                guard let found = options.first(where: { $0.name == name }) else {
                    throw UsageError.unknownOption(command: spec.name, option: "--\(name)",
                                                   suggestion: Suggest.closest(to: "--\(name)", in: options.map { "--\($0.name)" }))
                }
                option = found
            } else {
                // A single-dash word: a short option (only single letters are defined), or a negative number.
                let letters = arg.dropFirst()
                guard letters.count == 1, let found = options.first(where: { $0.short == letters.first }) else {
                    if arg.dropFirst().allSatisfy(\.isNumber) { parsed.positionals.append(arg); continue }
                    throw UsageError.unknownOption(command: spec.name, option: arg,
                                                   suggestion: Suggest.closest(to: "-" + arg, in: options.map { "--\($0.name)" }))
                }
                option = found
            }

            if option.takesValue {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard i < arguments.count else { throw UsageError.missingValue(command: spec.name, option: option) }
                    value = arguments[i]; i += 1
                }
                if !option.repeatable, parsed.value(option.name) != nil {
                    throw UsageError.repeatedOption(command: spec.name, option: "--\(option.name)")
                }
                parsed.set(option, value: value)
            } else if let inlineValue, option.optionalValue != nil {
                parsed.set(option, value: inlineValue)
            } else {
                if inlineValue != nil { throw UsageError.unexpectedValue(command: spec.name, option: "--\(option.name)") }
                parsed.set(option, value: nil)
            }
        }
        if parsed.has("help") { return parsed }   // help wins over arity problems
        if !spec.positionals.contains(parsed.positionals.count) {
            throw parsed.positionals.count < spec.positionals.lowerBound
                ? UsageError.missingArgument(command: spec.name)
                : UsageError.tooManyArguments(command: spec.name, max: spec.positionals.upperBound)
        }
        return parsed
    }
}

/// "Did you mean …?" by edit distance.
enum Suggest {
    static func closest(to word: String, in candidates: [String]) -> String? {
        let scored = candidates.map { ($0, distance(word.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        let limit = max(2, word.count / 3)
        if best.1 <= limit { return best.0 }
        // a prefix of a longer name: `--pass` → `--passphrase-file`
        return candidates.first { $0.hasPrefix(word) && word.count >= 3 }
    }

    /// Edit distance over characters, counting a swap of two neighbours as one edit (`lsit` → `list`).
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}

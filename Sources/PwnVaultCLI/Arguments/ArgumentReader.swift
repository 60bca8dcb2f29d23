import PwnVaultCore

/// The result of reading a command's arguments against its `CommandSpec`.
///
/// Options are looked up by their `OptionSpec` (each command declares its own as static constants), never
/// by a name typed again: a misspelt option does not compile. Looking up an option the command does
/// not accept is a programming error, caught by an assertion in debug builds (and by the tests).
struct ParsedArguments: Sendable {
    var positionals: [String] = []
    private(set) var values: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    /// The names of the options the spec read against accepts (its own and the global ones); empty for
    /// arguments made by hand in tests, which then accept any lookup.
    private(set) var accepted: Set<String> = []
    /// Test support (`CommandOptionsTests`): when set, every option looked up is noted here instead of
    /// asserted against `accepted`, so a test can compare what an options struct reads with what its
    /// command declares.
    var lookups: Locked<[String]>?

    /// Whether `option` was given (with or without a value).
    func has(_ option: OptionSpec) -> Bool { let name = checked(option); return flags.contains(name) || values[name] != nil }
    /// The value of `option`'s last occurrence, or nil.
    func value(_ option: OptionSpec) -> String? { values[checked(option)]?.last }
    /// Every value given to a repeatable `option`, in order.
    func allValues(_ option: OptionSpec) -> [String] { values[checked(option)] ?? [] }

    private func checked(_ option: OptionSpec) -> String {
        if let lookups { lookups.withLock { $0.append(option.name) }; return option.name }
        assert(accepted.isEmpty || accepted.contains(option.name), "--\(option.name) is not an option of this command")
        return option.name
    }

    mutating func set(_ option: OptionSpec, value: String?) {
        if let value { values[option.name, default: []].append(value) } else { flags.insert(option.name) }
    }

    mutating func accept(_ options: [OptionSpec]) { accepted = Set(options.map(\.name)) }
}

/// Reads `--opt value`, `--opt=value`, `-h`, `--` and positionals by hand, against a spec.
enum ArgumentReader {
    static func read(_ arguments: [String], spec: CommandSpec) throws -> ParsedArguments {
        let options = spec.options + GlobalOptions.all
        var parsed = ParsedArguments()
        parsed.accept(options)
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
                if !option.repeatable, parsed.value(option) != nil {
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
        if parsed.has(GlobalOptions.help) { return parsed }   // help wins over arity problems
        if !spec.positionals.contains(parsed.positionals.count) {
            throw parsed.positionals.count < spec.positionals.lowerBound
                ? UsageError.missingArgument(command: spec.name)
                : UsageError.tooManyArguments(command: spec.name, max: spec.positionals.upperBound)
        }
        return parsed
    }
}

extension ArgumentReader {
    /// The global options before the command word, and what stopped the scan.
    struct Leading: Equatable {
        enum Stop: Equatable { case command(String), version, end }
        var options: [String] = []
        var stop: Stop = .end
    }

    /// Reads the global options in front of the command (`pwnvault --vault X --json list`), with their
    /// values, up to the command word. `--version` stops the scan; anything else starting with `-`
    /// that is not a global option is an unknown option, named when it is a plain word.
    static func leadingGlobalOptions(_ arguments: [String]) throws -> Leading {
        var leading = Leading()
        var i = 0
        while i < arguments.count {
            let arg = arguments[i]
            if arg == "--version" || arg == "-V" { leading.stop = .version; return leading }
            guard arg.hasPrefix("-"), arg != "-" else { leading.stop = .command(arg); return leading }
            let name = arg.hasPrefix("--") ? String(arg.dropFirst(2).prefix { $0 != "=" }) : ""
            let short = arg.count == 2 && !arg.hasPrefix("--") ? arg.last : nil
            guard let option = GlobalOptions.all.first(where: { (!name.isEmpty && $0.name == name) || (short != nil && $0.short == short) }) else {
                let known = GlobalOptions.all.map { "--\($0.name)" } + ["--version"]
                let shown = arg.hasPrefix("--") ? "--\(name)" : arg
                throw UsageError.unknownOption(command: "pwnvault", option: shown, suggestion: Suggest.closest(to: shown, in: known))
            }
            leading.options.append(arg)
            i += 1
            if option.takesValue, !arg.contains("=") {
                guard i < arguments.count else { throw UsageError.missingValue(command: "pwnvault", option: option) }
                leading.options.append(arguments[i])
                i += 1
            }
        }
        return leading
    }
}

/// "Did you mean …?" by edit distance.
enum Suggest {
    static func closest(to word: String, in candidates: [String]) -> String? {
        let scored = candidates.map { ($0, distance(word, $0)) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        let limit = EditDistance.limit(for: word)
        if best.1 <= limit { return best.0 }
        // a prefix of a longer name: `--pass` → `--passphrase-file`
        return candidates.first { $0.hasPrefix(word) && word.count >= 3 }
    }

    static func distance(_ a: String, _ b: String) -> Int { EditDistance.between(a, b) }
}

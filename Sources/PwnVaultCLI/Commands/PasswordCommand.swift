import FoundationEssentials
import PwnVaultCore

/// `pwnvault password`: is a password in Pwned Passwords? Asked on the terminal without echo, or read
/// one per line from stdin; checked with k-anonymity (five hex characters of its SHA-1 leave the
/// machine) or in a downloaded file. Prints counts only, stores nothing.
enum PasswordCommand: Command {
    static let offline = OptionSpec("offline", value: "FILE", help: msg("search a downloaded Pwned Passwords file instead of the API"))

    static let spec = CommandSpec(
        name: "password",
        summary: msg("check passwords against Pwned Passwords without sending them"),
        usage: ["[--offline FILE]", "[--offline FILE] < passwords.txt"],
        discussion: msg("""
        On a terminal the password is asked for without echo; otherwise passwords are read from stdin,
        one per line (empty lines skipped), and each gets one result line naming only its line number.
        Only the first 5 of the 40 hex characters of each password's SHA-1 are sent, to the Pwned
        Passwords range API ($PWNVAULT_PASSWORDS_URL, padded answers); the rest is compared on this
        machine. With --offline nothing is sent: FILE is the SHA-1 file ordered by hash from HIBP's
        PwnedPasswordsDownloader (HASH:COUNT lines, tens of GB), binary-searched without reading it
        whole. Passwords and hashes are never printed or stored.
        Exit status: 0 no password was found, 1 at least one was, 2 bad input or file, 6 network failure.
        """),
        options: [offline],
        examples: [("pwnvault password", msg("type a password (not shown) and see how often it was seen")),
                   ("pwnvault password < candidates.txt", msg("one result per line: 'line 3: seen 1,052,154 times'")),
                   ("pwnvault password --offline pwnedpasswords.txt", msg("check against the downloaded file; nothing leaves the machine")),
                   ("pwnvault password --json < candidates.txt", msg("line numbers and counts for a script"))],
        usesVault: false)

    /// One password's result, as printed with --json: its line on stdin (nil when typed), and its count.
    struct Row: Encodable { let line: Int?; let found: Bool; let count: Int }
    struct Summary: Encodable { let checked: Int; let found: Int }
    struct Report: Encodable { let source: String; let results: [Row]; let summary: Summary }

    static func run(_ context: Context) throws -> ExitStatus {
        let lookup = try makeLookup(context, options: try Options(context))
        var rows: [Row] = []
        // A terminal on stdin means a person typing: ask with echo off (also with TERM=dumb, where
        // the capabilities say "no terminal" but reading stdin would echo the password).
        if context.standardInputIsATTY {
            let password = try PassphrasePrompt.read(prompt: msg("Password to check (not shown): "))
            guard password.count > 0 else { throw InputError(msg("no password given"), hint: msg("type the password, then Enter")) }
            let count = try lookup.timesSeen(PasswordHash(password: password))
            rows.append(Row(line: nil, found: count > 0, count: count))
            if !context.json {
                context.console.out(count > 0
                    ? msg("this password was seen {1} times in data breaches: do not use it", thousands(count))
                    : msg("this password was not found in Pwned Passwords"))
            }
        } else {
            // One hash in secret memory, reused for every line; offline results are written in
            // batches (one write per 32 KiB), online ones as each answer arrives.
            let hash = PasswordHash(password: UnsafeRawBufferPointer(start: nil, count: 0))
            var pending: [String] = []
            var pendingBytes = 0
            let flushEach = lookup.isSlow ? 0 : 32 * 1024
            func flush() {
                if !pending.isEmpty { context.console.out(pending.joined(separator: "\n")) }
                pending.removeAll(keepingCapacity: true)
                pendingBytes = 0
            }
            defer { flush() }   // also when a lookup fails midway: the results so far are shown
            try PasswordLineReader(fd: context.standardInput).forEachLine { line, password in
                hash.rehash(password)
                let count = try lookup.timesSeen(hash)
                rows.append(Row(line: line, found: count > 0, count: count))
                if !context.json {
                    let text = count > 0 ? msg("line {1}: seen {2} times", line, thousands(count)) : msg("line {1}: not found", line)
                    pending.append(text)
                    pendingBytes += text.utf8.count + 1
                    if pendingBytes >= flushEach { flush() }
                }
            }
            if rows.isEmpty { throw InputError(msg("no passwords on stdin"), hint: msg("give one password per line")) }
        }
        let found = rows.filter(\.found).count
        if context.json {
            try context.console.json(Report(source: lookup.source, results: rows,
                                            summary: Summary(checked: rows.count, found: found)))
        }
        return found > 0 ? .breachesFound : .success
    }

    /// Where counts come from: the file given with --offline (opened and checked before any password
    /// is asked for), else the range API.
    static func makeLookup(_ context: Context, options: Options) throws -> Lookup {
        if let path = options.offline {
            return .file(try PwnedPasswordsFile(path: path))
        }
        // The run's transport: the client's requests carry their own body cap.
        return .api(PwnedPasswordsClient(baseURL: context.settings.passwordsBaseURL, version: CLI.version, transport: context.transport))
    }

    /// 52256179 → "52,256,179".

    /// The two places a password's count can come from.
    enum Lookup {
        case api(PwnedPasswordsClient)
        case file(PwnedPasswordsFile)

        /// Whether each lookup waits on the network (results are then shown one by one).
        var isSlow: Bool {
            if case .api = self { return true }
            return false
        }

        /// "api" or "file", for --json.
        var source: String {
            switch self {
            case .api: return "api"
            case .file: return "file"
            }
        }

        func timesSeen(_ hash: PasswordHash) throws -> Int {
            switch self {
            case let .api(client):
                do { return try blocking { try await client.timesSeen(hash) } } catch { throw PwnedPasswordsError.wrapping(error) }
            case let .file(file): return try file.timesSeen(hash)
            }
        }
    }
}

extension PasswordCommand {
    static let optionsType: any CommandOptions.Type = Options.self

    /// `password`'s options, read once (the file is opened and checked by `makeLookup`).
    struct Options: CommandOptions, Equatable {
        /// The downloaded Pwned Passwords file to search instead of the API.
        let offline: String?

        init(_ arguments: ParsedArguments, settings: Settings) {
            offline = arguments.value(PasswordCommand.offline)
        }
    }
}

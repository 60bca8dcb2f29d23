/// Where a passphrase comes from. Never argv: a file, a file descriptor, or the terminal.
public enum PassphraseSource: Equatable, Sendable {
    /// The first line of an open file descriptor (`--passphrase-fd N`).
    case fileDescriptor(Int32)
    /// The first line of a file (`--passphrase-file PATH`, `PWNVAULT_PASSPHRASE_FILE`).
    case file(String)
    /// A no-echo prompt on the controlling terminal.
    case terminal

    /// Reads one passphrase. On the terminal, `prompt` is shown; from files the first line is used.
    /// `standardInput` is what descriptor 0 means for this run (itself in the binary; a descriptor of
    /// the test's own when a command line runs in-process), so `--passphrase-fd 0` reads the run's stdin.
    public func read(prompt: String, standardInput: Int32 = 0) throws -> SecretBytes {
        let secret: SecretBytes
        switch self {
        case .terminal:
            secret = try PassphrasePrompt.read(prompt: prompt)
        case let .fileDescriptor(named):
            let fd = named == 0 ? standardInput : named
            guard FileDescriptor.isOpen(fd) else { throw PassphraseError.badDescriptor(named) }
            secret = try PassphrasePrompt.readLine(fd: fd)
        case let .file(path):
            let file = try Self.open(passphraseFile: path)
            secret = try withExtendedLifetime(file) { try PassphrasePrompt.readLine(fd: file.raw) }
        }
        guard secret.count > 0 else { throw PassphraseError.empty(source: self) }
        return secret
    }

    /// The passphrase file, opened: a regular file, or a shell's `<(…)` (a link to a pipe already being
    /// written). A named pipe (FIFO) would block until something writes to it, a device may never end:
    /// both are refused at once, before and after opening (the open never blocks).
    static func open(passphraseFile path: String) throws -> FileDescriptor {
        do {
            if FileSystem.isLinkToAnonymousPipe(path) { return try FileSystem.open(path, for: .readPassphrase) }
            if let kind = try FileSystem.status(path, followingLinks: true)?.kind, let what = PassphraseError.unusableKind(kind) {
                throw PassphraseError.notARegularFile(path: path, what: what)
            }
            let file = try FileSystem.open(path, for: .readPassphraseFile)
            if let what = PassphraseError.unusableKind(try file.status().kind) {
                throw PassphraseError.notARegularFile(path: path, what: what)
            }
            return file
        } catch let e as SystemError {
            throw PassphraseError.unreadableFile(path: path, reason: e.reason)
        }
    }

    /// Whether a second, confirming entry makes sense (only when a person types it).
    public var isInteractive: Bool { self == .terminal }

    var describedForErrors: String {
        switch self {
        case let .fileDescriptor(fd): return msg("file descriptor {1}", fd)
        case let .file(path): return path
        case .terminal: return msg("the terminal")
        }
    }
}

/// Why no passphrase could be had.
public enum PassphraseError: UserFacingError, Equatable {
    case badDescriptor(Int32)
    case unreadableFile(path: String, reason: String)
    case empty(source: PassphraseSource)
    case mismatch
    case tooShort(minimum: Int)
    /// The passphrase file is a FIFO, a device, a socket or a folder (`what` says which).
    case notARegularFile(path: String, what: String)
    /// zxcvbn estimates fewer bits than `NewPassphraseCheck.minimumBits` (both rounded down).
    case tooWeak(bits: Int, minimum: Int)
    /// Pwned Passwords has seen it `times` times.
    case seenInBreaches(times: Int)

    public var message: String {
        switch self {
        case let .badDescriptor(fd): return msg("cannot read the passphrase from file descriptor {1}: it is not open", fd)
        case let .unreadableFile(path, reason): return msg("cannot read the passphrase file {1}: {2}", path, reason.lowercased())
        case let .empty(source): return msg("the passphrase from {1} is empty", source.describedForErrors)
        case .mismatch: return msg("the two passphrases do not match")
        case let .notARegularFile(path, what): return msg("the passphrase file {1} is {2}, not a regular file", path, what)
        case let .tooShort(minimum): return msg(one: "the passphrase is too short (at least {1} character)", many: "the passphrase is too short (at least {1} characters)", count: minimum, minimum)
        case let .tooWeak(bits, minimum):
            // In words a person uses: how many guesses it would take, and how many words would do.
            let words = Self.wordsToAdd(bits: bits, minimum: minimum)
            if bits < 4 {
                return msg(one: "the passphrase is too easy to guess: it is among the first few an attacker tries; add {1} word picked at random",
                           many: "the passphrase is too easy to guess: it is among the first few an attacker tries; add {1} words picked at random",
                           count: words, words)
            }
            return msg(one: "the passphrase is too easy to guess: it could be guessed in about {1} tries; add {2} word picked at random",
                       many: "the passphrase is too easy to guess: it could be guessed in about {1} tries; add {2} words picked at random",
                       count: words, Self.guesses(bits: bits), words)
        case let .seenInBreaches(times):
            return msg(one: "the passphrase was seen {1} time in data breaches (Pwned Passwords): it is on attackers' lists", many: "the passphrase was seen {1} times in data breaches (Pwned Passwords): it is on attackers' lists", count: times, Self.grouped(times))
        }
    }

    public var hint: String? {
        switch self {
        case .badDescriptor: return Self.howToPass
        case .notARegularFile:
            return msg("write the passphrase to a file (mode 0600) and name that, or hand a pipe over with --passphrase-fd N (e.g. --passphrase-fd 3 3< <(pass show vault))")
        case .tooShort: return msg("a few unrelated words make a strong passphrase that is easy to type")
        case .tooWeak:
            return msg("four or more words picked at random make a strong passphrase that is easy to type (no keyboard walks, no well-known phrases); --weak-passphrase-ok uses it anyway")
        case .seenInBreaches:
            return msg("choose one that was never used anywhere; --weak-passphrase-ok uses it anyway")
        case .mismatch: return msg("nothing was changed; type the same passphrase twice")
        default: return nil
        }
    }

    public var exitStatus: ExitStatus { .authentication }

    /// What a passphrase file must not be, in words; nil for a regular file (or a link, followed).
    static func unusableKind(_ kind: FileStatus.Kind) -> String? {
        switch kind {
        case .regular, .symbolicLink: return nil
        case .fifo: return msg("a named pipe (FIFO)")
        case .device: return msg("a device")
        case .socket: return msg("a socket")
        case .directory: return msg("a folder")
        case .other: return msg("of a kind that is not a file")
        }
    }

    /// 9659365 → "9,659,365".
    /// About 2^bits, rounded to two significant digits and grouped: 27 bits → `130,000,000`.
    static func guesses(bits: Int) -> String {
        let n = 1 << min(max(bits, 0), 62)
        var scale = 1
        while n / scale >= 100 { scale *= 10 }
        return grouped((n + scale / 2) / scale * scale)
    }

    /// Words picked at random from a list of a few thousand add about 13 bits each (EFF's long list:
    /// 12.9): how many reach `minimum`, at least one.
    static func wordsToAdd(bits: Int, minimum: Int) -> Int { max(1, Int((Double(minimum - bits) / 12.9).rounded(.up))) }

    static func grouped(_ n: Int) -> String {
        var digits = Array(String(n))
        var i = digits.count - 3
        while i > 0 { digits.insert(",", at: i); i -= 3 }
        return String(digits)
    }

    /// The one place that says how to give pwnvault a passphrase without a terminal.
    public static var howToPass: String {
        msg("pass it with --passphrase-file PATH, PWNVAULT_PASSPHRASE_FILE=PATH or --passphrase-fd N (the first line is used; never on the command line)")
    }
}

import FoundationEssentials
import PwnVaultCore

/// The command-line front end. `main.swift` calls `run` and exits with its status.
public enum CLI {
    public static let version = "0.1.0"

    /// Runs one command line against the real process environment, terminal and keyring.
    /// `argv` is `CommandLine.arguments`; the raw bytes behind it are checked first (`RawArguments`).
    /// `now` is the clock; only the benchmark build (`bench/run.sh monitor`) passes another one.
    public static func run(_ argv: [String], now: @escaping @Sendable () -> Date = { Date() }) -> Int32 {
        ProcessHygiene.harden()
        if let position = RawArguments.firstNotUTF8(RawArguments.fromProcess()) {
            let error = UsageError.notUTF8(position: position)
            Console.reportBeforeAnyConsole(error)
            return error.exitStatus.rawValue
        }
        let environment = ProcessInfo.processInfo.environment
        // Messages in the reader's language (LANGUAGE, LC_ALL, LC_MESSAGES, LANG); English without a catalog.
        let messages = Gettext.startForProcess(environment: environment)
        for case let .dividingPluralForms(file, expression) in messages.refused {
            // A catalog that would make glibc divide by zero: refused, said once, English used.
            Console.warnBeforeAnyConsole(msg("the message catalog {1} is not used: its Plural-Forms divides by something other than a non-zero number ({2}); messages are in English",
                                             Sanitizer.singleLine(file), Sanitizer.singleLine(expression)))
        }
        let failure = OutputFailure()
        var status = run(arguments: Array(argv.dropFirst()), environment: environment,
                         terminal: TerminalCapabilities.detect(environment: environment),
                         keyring: { KeyringFactory.make(settings: $0, interaction: $1) },
                         writeOut: StandardWriters.out(recordingIn: failure), writeErr: StandardWriters.err, now: now)
        if let error = failure.error, status == .success || status == .breachesFound {
            Console.reportBeforeAnyConsole(error)
            status = error.exitStatus
        }
        return status.rawValue
    }

    /// One command line run inside the calling process, with what a process takes from outside given
    /// instead: the environment (HOME, XDG folders, settings: never this process's own), standard input
    /// as an open descriptor (a pipe or /dev/null, read where the binary reads fd 0), stdout and stderr
    /// as writers, the clock and the HTTP transport (nil: the run's real `CurlTransport`). The keyring is
    /// the one `Settings` names, as in the binary. The streams are no terminal (what a pipe gives the
    /// binary), stdin's own device decides what typing means.
    ///
    /// What stays the process's and is not redone here: `ProcessHygiene.harden()` (the caller sets the
    /// umask and signal dispositions it wants for the run and puts them back), the argv bytes' UTF-8 check,
    /// and the message catalog (gettext's language is chosen once per process from the process's own
    /// locale: without `Gettext.start`, every message is English). Tests run English command lines this
    /// way and everything else (another language, terminals, signals, start-up) through the binary.
    public static func run(arguments: [String], environment: [String: String], standardInput: Int32,
                           writeOut: @escaping @Sendable (String) -> Void, writeErr: @escaping @Sendable (String) -> Void,
                           now: @escaping @Sendable () -> Date = { Date() },
                           transport: ((Settings) -> any HTTPTransport)? = nil) -> Int32 {
        var terminal = TerminalCapabilities.none
        terminal.stdinIsTerminal = environment["TERM"] != "dumb" && TerminalCapabilities.isATTY(standardInput)
        return run(arguments: arguments, environment: environment, terminal: terminal,
                   keyring: { KeyringFactory.make(settings: $0, interaction: $1) },
                   writeOut: writeOut, writeErr: writeErr, now: now, standardInput: standardInput,
                   transport: transport ?? defaultTransport).rawValue
    }

    /// The run's one HTTP transport: libcurl with the settings' timeout.
    static func defaultTransport(_ settings: Settings) -> any HTTPTransport {
        CurlTransport(timeout: .seconds(settings.httpTimeoutSeconds))
    }

    /// The testable core of `run`: every service injected. Settings are read only once a command is
    /// about to run, so `--help` and `--version` work whatever the environment holds.
    static func run(arguments: [String], environment: [String: String], terminal: TerminalCapabilities,
                    keyring makeKeyring: (Settings, KeyringInteraction) -> Keyring, writeOut: @escaping @Sendable (String) -> Void,
                    writeErr: @escaping @Sendable (String) -> Void, now: @escaping @Sendable () -> Date = { Date() },
                    detectShare: ([String: String]) -> ShareModeReason? = { ShareModeDetector().detect(environment: $0) },
                    standardInput: Int32 = StandardStream.inputDescriptor,
                    transport makeTransport: (Settings) -> any HTTPTransport = defaultTransport) -> ExitStatus {
        let plain = Console(terminal: terminal, policy: DisplayPolicy(terminal: terminal.stdoutIsTerminal, shareMode: false),
                            colorsAllowed: false, writeOut: writeOut, writeErr: writeErr)
        if arguments.isEmpty {
            plain.out(HelpText.overview(width: terminal.columns))
            return .success
        }
        // Global options may come before the command too (`pwnvault --json list`), as gh and git allow.
        let leading: ArgumentReader.Leading
        do { leading = try ArgumentReader.leadingGlobalOptions(arguments) } catch let error as UsageError {
            plain.error(error)
            return error.exitStatus
        } catch {
            plain.error(InternalError(error))
            return .usage
        }
        let first: String
        switch leading.stop {
        case .version: plain.out("pwnvault \(version)"); return .success
        case .end:
            if leading.options.contains(where: { $0 == "--help" || $0 == "-h" }) { plain.out(HelpText.overview(width: terminal.columns)); return .success }
            let error = UsageError.missingCommand
            plain.error(error)
            return error.exitStatus
        case let .command(word): first = word
        }

        guard let command = Commands.named(first) else {
            // A word that is no near miss is repeated only on a terminal outside share mode: elsewhere
            // (a log, a shared screen) it may be an account typed in the wrong place.
            let named = terminal.stderrIsTerminal && !leading.options.contains("--share")
                && (try? Settings(environment: environment))?.shareMode == false
                && (leading.options.contains("--no-share") || detectShare(environment) == nil)
            let error: UsageError = .unknownCommand(first, suggestion: Suggest.closest(to: first, in: Commands.all.map { $0.spec.name }),
                                                    named: named)
            plain.error(error)
            return error.exitStatus
        }
        let spec = command.spec
        let parsed: ParsedArguments
        do {
            parsed = try ArgumentReader.read(leading.options + Array(arguments.dropFirst(leading.options.count + 1)), spec: spec)
        } catch let error as UsageError {
            plain.error(error)
            return error.exitStatus
        } catch {
            plain.error(InternalError(error))
            return .usage
        }
        if parsed.has(GlobalOptions.help) { plain.out(HelpText.command(spec, width: terminal.columns)); return .success }
        let settings: Settings
        do { settings = try Settings(environment: environment) } catch let error as UserFacingError {
            plain.error(error)
            return error.exitStatus
        } catch {
            plain.error(InternalError(error))
            return .usage
        }

        if parsed.has(GlobalOptions.share) && parsed.has(GlobalOptions.noShare) {
            let error = UsageError.conflicting(command: spec.name, reason: msg("--share and --no-share contradict each other"))
            plain.error(error)
            return error.exitStatus
        }
        let share = shareMode(parsed, settings: settings, environment: environment, terminal: terminal, detect: detectShare)
        let console = Console(terminal: terminal,
                              policy: DisplayPolicy(terminal: terminal.stdoutIsTerminal && !parsed.has(GlobalOptions.json), shareMode: share != nil),
                              colorsAllowed: !parsed.has(GlobalOptions.noColor) && !settings.noColor, writeOut: writeOut, writeErr: writeErr,
                              apiKeyFromEnvironment: settings.hasAPIKeyInEnvironment)
        if let share, spec.usesVault {
            console.note(msg("share mode is on ({1}): accounts appear by label or #id only", share))
        }
        // The keyring's own dialogs (KeePassXC's access request, an unlock) only for a person at a
        // terminal, announced on stderr first; watch, completion and anything piped never raise one.
        let interaction = terminal.stderrIsTerminal && !spec.unattended
            ? KeyringInteraction(allowsDialogs: true, promptTimeoutMilliseconds: settings.keyringPromptTimeoutMilliseconds,
                                 announce: { console.note($0) })
            : .unattended
        var context = Context(commandName: spec.name, arguments: parsed, environment: environment, settings: settings,
                              console: console, keyring: makeKeyring(settings, interaction), now: now,
                              transport: makeTransport(settings), shareReason: share)
        context.standardInput = standardInput
        do {
            return try command.run(context)
        } catch let error as UserFacingError {
            console.error(error)
            return error.exitStatus
        } catch {
            let wrapped = InternalError(error)
            console.error(wrapped)
            return wrapped.exitStatus
        }
    }
}

extension CLI {
    /// Why share mode is on, or nil: `--share`, `PWNVAULT_SHARE`, or a shared or recorded terminal
    /// (looked for only when something is shown on a terminal, and not with `--no-share`).
    static func shareMode(_ parsed: ParsedArguments, settings: Settings, environment: [String: String],
                          terminal: TerminalCapabilities,
                          detect: ([String: String]) -> ShareModeReason?) -> ShareModeReason? {
        if parsed.has(GlobalOptions.share) { return ShareModeReason("--share", source: .option) }
        if settings.shareMode { return ShareModeReason(source: .variable) { msg("{1} is set", Settings.shareVariable) } }
        guard !parsed.has(GlobalOptions.noShare), terminal.stdoutIsTerminal || terminal.stderrIsTerminal else { return nil }
        return detect(environment)
    }
}

/// An error pwnvault did not expect. Its text is the error's own description when it writes one, else
/// its type and case name only: default reflection would print associated values and stored
/// properties, and those could hold vault data.
struct InternalError: UserFacingError {
    let underlying: Error
    init(_ underlying: Error) { self.underlying = underlying }
    var message: String { msg("unexpected failure: {1}", Sanitizer.singleLine(Self.describe(underlying))) }

    /// `description` of a `CustomStringConvertible` error; otherwise `Type.case` for an enum, `Type` for anything else.
    static func describe(_ error: Error) -> String {
        if let described = error as? CustomStringConvertible { return described.description }
        let name = String(describing: type(of: error))
        let mirror = Mirror(reflecting: error)
        guard mirror.displayStyle == .enum else { return name }
        // A case with associated values is the mirror's one child, labelled with the case name; a case
        // without any prints as its name alone.
        return name + "." + (mirror.children.first?.label ?? String(describing: error))
    }
    var hint: String? { msg("please report this; the vault was not changed by the failing step") }
    var exitStatus: ExitStatus { .vault }
}

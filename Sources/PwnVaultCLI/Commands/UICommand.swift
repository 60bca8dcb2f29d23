import FoundationEssentials
import PwnVaultCore

/// `pwnvault ui`: the vault's screens in one full-screen interface on the private screen.
enum UICommand: Command {
    static let idle = OptionSpec("idle", value: "SECONDS", help: msg("lock the screen after SECONDS without a key (default 300; 0 never)"))
    static let rpm = PacingOptions.rpm.withHelp(msg("the API key's requests per minute for checks (default: asked from HIBP)"))

    static let spec = CommandSpec(
        name: "ui",
        summary: msg("look around the vault in one full-screen interface that protects itself"),
        usage: ["[--idle SECONDS] [--rpm N]"],
        discussion: msg("""
        Accounts (masked as everywhere; filter with / by id, account, label or state), the result of
        the selected account (Enter; a acknowledges; Enter again opens one of its breaches, Tab picks
        which), the breach catalog (c; search with /, sort with s) and each breach's details. r checks
        the selected account, R every account that is due (paced like 'check --all'; Esc cancels);
        when none is due, R again checks every account shown anyway. n adds an account (typed without echo, then shown masked); i imports a vCard through
        a pick list; v reveals the selected account after the passphrase, with every breach, paste and
        stealer-log website as reveal shows them (arrows, PgUp/PgDn, Home/End scroll, / finds), until
        any other key, a focus loss or 30 s (10 s, with a warning, where focus changes are not reported;
        refused in share mode and under GNU screen with altscreen off). ? lists the keys; q quits. It draws on the terminal's alternate screen, so nothing
        reaches the scrollback; the screen is replaced by one neutral line when the window loses focus
        or after --idle seconds without a key (then a key shows it again, or the passphrase once
        something was revealed), and is cleared before Ctrl-Z stops pwnvault. Every way
        out (q, Ctrl-C, SIGTERM, SIGHUP, an error) leaves the terminal as it was. In share mode only
        labels and ids appear and the status line says so. Needs a terminal (TERM=dumb is none).
        """),
        options: [idle, rpm],
        examples: [("pwnvault ui", msg("browse accounts, results and the breach catalog")),
                   ("pwnvault ui --share", msg("the same while sharing the screen: labels and ids only"))])

    static let defaultIdle = 300

    static func run(_ context: Context) throws -> ExitStatus {
        // Read and checked once: the ui's checks are paced as `check`'s (its typed options, reused).
        let options = try Options(context)
        if TerminalCapabilities.stdoutIsDumbTerminal(environment: context.environment) { throw UIRefusal.dumbTerminal }
        guard context.console.terminal.stdoutIsTerminal, context.standardInputIsATTY else { throw UIRefusal.notATerminal }
        guard let screen = FullScreen.onControllingTerminal(colors: context.console.colors, idleTimeout: Double(options.idle)) else {
            throw UIRefusal.notATerminal
        }
        let session = try context.openVault()
        // What loading the catalog has to say (offline: "breach details unavailable…") goes to the
        // status line: written to stderr now it would stay on the normal screen after the ui.
        let notes = Locked<[String]>([])
        let c = context.console
        var unwrapped = c.terminal
        unwrapped.stderrColumns = nil   // one line each on the status line, not wrapped for stderr's window
        let noting = Console(terminal: unwrapped, policy: c.policy, colorsAllowed: false, writeOut: { _ in },
                             writeErr: { text in notes.withLock { $0.append(text.trimmingWhitespaceAndNewlines().replacingLiterally("pwnvault: ", with: "")) } })
        let quiet = Context(commandName: context.commandName, arguments: context.arguments, environment: context.environment,
                            settings: context.settings, console: noting, keyring: context.keyring, now: context.now,
                            transport: context.transport, shareReason: context.shareReason)
        let catalog = HIBPServices(quiet).catalogIfAvailable()
        // Asked before the screen opens: the ui's `v` follows focus, and shows nothing under GNU screen
        // without a working alternate screen (its scrollback would keep it).
        let obstacle = FocusObstacle.detect(environment: context.environment)
        let alternateScreen = AlternateScreenProbe.underGNUScreen(environment: context.environment)
        let ui = VaultUI(context: context, session: session, catalog: catalog, pacing: options.pacing)
        ui.prepare(message: notes.value.first, focusObstacle: obstacle, alternateScreen: alternateScreen)
        switch try screen.run(ui) {
        case .userQuit: return .success
        case let .interrupted(signal): return .interrupted(by: signal)
        }
    }
}

enum UIRefusal: UserFacingError {
    case notATerminal, dumbTerminal, json

    var message: String {
        switch self {
        case .notATerminal: return msg("the ui needs a terminal: its input or output is redirected")
        case .dumbTerminal: return msg("the ui needs a terminal that can draw a screen: TERM=dumb says this one cannot")
        case .json: return msg("the ui has no --json output")
        }
    }

    var hint: String? {
        switch self {
        case .notATerminal: return msg("run 'pwnvault ui' in a terminal, without redirections; for scripts use 'pwnvault list', 'show' and 'breaches'")
        case .dumbTerminal: return msg("run it with your terminal's type, e.g. TERM=xterm-256color pwnvault ui")
        case .json: return msg("use 'pwnvault list --json', 'show --json' or 'breaches --json'")
        }
    }

    var exitStatus: ExitStatus { .usage }
}

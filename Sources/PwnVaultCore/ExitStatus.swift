/// Every exit status pwnvault uses, documented in Docs/CLI.md. Only `main.swift` turns one into `exit()`.
public enum ExitStatus: Int32, Sendable, CaseIterable {
    /// Success; for `check`: no checked account has a finding nobody acknowledged; for `watch`: nothing new.
    case success = 0
    /// `check`: at least one checked account has a finding nobody acknowledged (`ack`); `watch`: news.
    case breachesFound = 1
    /// Bad command line or bad input (unknown command or option, invalid account).
    case usage = 2
    /// Wrong passphrase, or no way to ask for one.
    case authentication = 3
    /// No vault, not a vault, unsupported version, damaged or tampered file, unsafe permissions, write error.
    case vault = 4
    /// The keyring was needed and is unusable, or holds a key for another vault.
    case keyring = 5
    /// The HIBP API could not be reached, answered nonsense, or asked for a longer wait than allowed;
    /// the run did not complete.
    case network = 6
    /// The HIBP API rejected the key or what it may do (401, HIBP's own 403; Cloudflare's 403 is `.network`).
    case apiAuthorization = 7
    /// The run completed but some accounts could not be checked; `schedule enable` without a user
    /// manager: nothing installed, the crontab line printed instead.
    case partial = 8
    /// The terminal hung up (SIGHUP) while `ui` or `reveal` ran: 128 + 1, as a shell reports it.
    case hungUp = 129
    /// Interrupted by a signal (Ctrl-C; for commands other than `ui` and `reveal` also SIGTERM, SIGHUP).
    case interrupted = 130
    /// Ctrl-\ (SIGQUIT) while `ui` or `reveal` ran: 128 + 3.
    case quit = 131
    /// Terminated (SIGTERM) while `ui` or `reveal` ran: 128 + 15.
    case terminated = 143

    /// 128 + the signal's number, as a shell reports a process the signal ended: SIGINT 130, SIGHUP
    /// 129, SIGQUIT 131, SIGTERM 143; any other signal counts as an interruption (130).
    public static func interrupted(by signal: Int32) -> ExitStatus {
        ExitStatus(rawValue: 128 + signal).flatMap { [.hungUp, .interrupted, .quit, .terminated].contains($0) ? $0 : nil } ?? .interrupted
    }
}

extension ExitStatus {
    /// What a run of `watch` ended with, for `schedule status`: 0 and 1 say what they mean for a watch
    /// (not check's "to acknowledge", which a watch does not count); the rest as `meaning`.
    public var watchMeaning: String {
        switch self {
        case .success: return msg("nothing new")
        case .breachesFound: return msg("something new was found")
        default: return meaning
        }
    }

    /// One line for `pwnvault help exit-status` and the docs.
    public var meaning: String {
        switch self {
        case .success: return msg("success; check: no checked account has a finding to acknowledge; watch: nothing new")
        case .breachesFound: return msg("check: a checked account has a breach, paste or stealer log to acknowledge (pwnvault ack); watch: something new was found")
        case .usage: return msg("usage: unknown command or option, bad value, invalid account, unknown id")
        case .authentication: return msg("wrong passphrase, passphrases that differ, or no way to ask for one")
        case .vault: return msg("no vault, not a vault, unsupported version, damaged or tampered file, unsafe permissions, write error")
        case .keyring: return msg("the keyring was needed and is unusable, or holds a key for another vault")
        case .network: return msg("HIBP could not be reached, answered nonsense, was blocked by its network (Cloudflare's 403) or asked to wait too long; the run did not complete")
        case .apiAuthorization: return msg("HIBP refused the API key or what it may do (401, 403), or no key is available")
        case .partial: return msg("the run completed but some accounts could not be checked; schedule enable: no user manager, nothing installed, a crontab line printed")
        case .hungUp: return msg("ui, reveal: the terminal hung up (SIGHUP, 128+1); the terminal is put back as it was")
        case .interrupted: return msg("interrupted (Ctrl-C; elsewhere than ui and reveal also SIGTERM, SIGHUP); finished work is kept")
        case .quit: return msg("ui, reveal: quit with Ctrl-\\ (SIGQUIT, 128+3)")
        case .terminated: return msg("ui, reveal: terminated (SIGTERM, 128+15)")
        }
    }
}

/// An error that knows what to tell the user: one lower-case line, an optional hint, and an exit status.
public protocol UserFacingError: Error {
    var message: String { get }
    var hint: String? { get }
    var exitStatus: ExitStatus { get }
}

extension UserFacingError {
    public var hint: String? { nil }
}

import FoundationEssentials

/// Every environment variable pwnvault reads, read in this one place, each with its default.
///
/// `documentation` is the table that `pwnvault help environment` and the man page print, in the
/// reader's language (computed when read). The HIBP API key is read here too, but it is a secret:
/// `environmentAPIKey` never prints and hands the key out only as `SecretBytes`.
public struct Settings: Sendable, Equatable {
    /// Whether the desktop keyring may be used.
    public enum KeyringMode: String, Sendable, CaseIterable {
        /// Never touch the keyring; the passphrase is the only way in.
        case none
        /// Use the Secret Service when one answers; fall back to the passphrase otherwise.
        case auto
    }

    // MARK: The variables

    /// Names of pwnvault's own variables, for messages and for the code that reads `HIBP_API_KEY`.
    public static let vaultVariable = "PWNVAULT_VAULT"
    public static let keyringVariable = "PWNVAULT_KEYRING"
    public static let keyringTimeoutVariable = "PWNVAULT_KEYRING_TIMEOUT_MS"
    public static let keyringPromptTimeoutVariable = "PWNVAULT_KEYRING_PROMPT_TIMEOUT_MS"
    public static let passphraseFileVariable = "PWNVAULT_PASSPHRASE_FILE"
    public static let apiURLVariable = "PWNVAULT_API_URL"
    public static let passwordsURLVariable = "PWNVAULT_PASSWORDS_URL"
    public static let apiKeyVariable = "HIBP_API_KEY"
    public static let shareVariable = "PWNVAULT_SHARE"
    public static let httpTimeoutVariable = "PWNVAULT_HTTP_TIMEOUT"
    /// Seconds one HTTP request may take, by default.
    public static let defaultHTTPTimeoutSeconds = 30
    public static let httpTimeoutRange = 1...600
    public static let maxWaitVariable = "PWNVAULT_MAX_WAIT"
    public static let kAnonymityVariable = "PWNVAULT_K_ANONYMITY"
    /// Seconds `check` waits at most when HIBP asks it to (429 `retry-after`), by default.
    public static let defaultMaxWaitSeconds = 60
    public static let maxWaitRange = 1...86_400

    /// Defaults, as printed in `documentation`.
    public static let defaultKeyringTimeoutMilliseconds = 2000
    /// The range accepted for `PWNVAULT_KEYRING_TIMEOUT_MS` and `PWNVAULT_KEYRING_PROMPT_TIMEOUT_MS`.
    public static let keyringTimeoutRange = 1...600_000
    /// How long a person at a terminal is given to answer the keyring's own dialog, by default.
    public static let defaultKeyringPromptTimeoutMilliseconds = 60_000
    public static let defaultAPIURL = "https://haveibeenpwned.com/api/v3"
    public static let defaultPasswordsURL = "https://api.pwnedpasswords.com"

    /// Each variable pwnvault reads: its name, its default, and what it does (one line each).
    public static var documentation: [(name: String, defaultValue: String, meaning: String)] { [
        (vaultVariable, "$XDG_DATA_HOME/pwnvault/vault",
         msg("the vault file; --vault PATH takes precedence")),
        (keyringVariable, "auto",
         msg("auto: keep the vault key in the desktop keyring when one answers; none: never use the keyring")),
        (keyringTimeoutVariable, "\(defaultKeyringTimeoutMilliseconds)",
         msg("how long to wait for the keyring, in milliseconds (1 to 600000), before using the passphrase")),
        (keyringPromptTimeoutVariable, "\(defaultKeyringPromptTimeoutMilliseconds)",
         msg("how long to wait for you to answer the keyring's own dialog (KeePassXC's access request, an unlock), in milliseconds (1 to 600000); only on a terminal")),
        (passphraseFileVariable, msg("(unset: ask on the terminal)"),
         msg("read the vault passphrase from the first line of this file instead of asking")),
        (apiURLVariable, defaultAPIURL,
         msg("the HIBP API base address: https, or http to this machine only (127.0.0.1 or localhost, for test servers)")),
        (passwordsURLVariable, defaultPasswordsURL,
         msg("the Pwned Passwords base address, with the same rule")),
        (apiKeyVariable, msg("(unset)"),
         msg("the HIBP API key (a secret: better kept in the keyring with `pwnvault config api-key`)")),
        (httpTimeoutVariable, "\(defaultHTTPTimeoutSeconds)",
         msg("seconds one request to HIBP may take before it is retried (1 to 600)")),
        (maxWaitVariable, "\(defaultMaxWaitSeconds)",
         msg("the longest wait HIBP may hold a command up for, in seconds (1 to 86400): one 429 retry-after, or 429s in a row from the first to the next try; a longer one ends the run (status 6)")),
        (kAnonymityVariable, "auto",
         msg("how check and watch look e-mail addresses up: auto (by k-anonymity, 6 hex characters of the SHA-1, while the key's plan allows it, else whole), require (never whole: status 7 instead), off (whole); --k-anonymity takes precedence")),
        (shareVariable, msg("(unset: off)"),
         msg("any value but 0, no, false or off: share mode, accounts shown only by label or #id")),
        ("LC_ALL", msg("(unset)"), msg("the locale; its language chooses the messages, before LC_MESSAGES's and LANG's; its territory (en_GB.UTF-8: GB) is the region national phone numbers are read in, before LC_TELEPHONE's and LANG's; its code page reads vCard 2.1 text, before LC_CTYPE's and LANG's")),
        ("LC_TELEPHONE", msg("(unset)"), msg("the locale for phone numbers, when LC_ALL is unset; C and POSIX name no region; add and import take --region CC instead")),
        ("LC_CTYPE", msg("(unset)"), msg("the locale for character sets, when LC_ALL is unset: import reads vCard 2.1 text that has no CHARSET and is not UTF-8 in its code page (else Windows-1252)")),
        ("LC_MESSAGES", msg("(unset)"), msg("the locale for messages, when LC_ALL is unset: zh_CN.UTF-8 speaks Simplified Chinese; C, POSIX or a language without a catalog is English")),
        ("LANG", msg("(unset)"), msg("the locale when LC_ALL and the LC_ variable above for the purpose are unset")),
        ("LANGUAGE", msg("(unset)"), msg("the languages of messages in order of preference (zh_CN:en), as gettext reads it; not under the C locale")),
        ("TEXTDOMAINDIR", msg("(unset)"), msg("the folder of the message catalogs, a pwnvault.mo per language, looked in before PREFIX/share/locale beside the installed binary")),
        ("NO_COLOR", msg("(unset)"), msg("any non-empty value turns colors off")),
        ("TERM", msg("(unset)"), msg("the terminal type; dumb counts as no terminal (no colors, accounts redacted)")),
        ("PAGER", "less -FRX", msg("the program long output is shown through on a terminal")),
        ("XDG_DATA_HOME", "$HOME/.local/share", msg("where the vault lives unless set otherwise; ignored unless absolute")),
        ("XDG_CACHE_HOME", "$HOME/.cache", msg("where the breach catalog is cached; ignored unless absolute")),
        ("XDG_CONFIG_HOME", "$HOME/.config", msg("where configuration would live; ignored unless absolute")),
        ("HOME", msg("(none)"), msg("the home folder, for the defaults above and for showing paths as ~/…")),
    ] }

    // MARK: The values

    /// `PWNVAULT_HTTP_TIMEOUT`: seconds one HTTP request may take.
    public var httpTimeoutSeconds: Int
    /// `PWNVAULT_MAX_WAIT`: the longest single `retry-after` that `check` waits for.
    public var maxWaitSeconds: Int

    /// `PWNVAULT_K_ANONYMITY`: how `check` and `watch` look e-mail addresses up.
    public var kAnonymity: KAnonymityMode

    /// `PWNVAULT_VAULT`, as given (may be relative or start with `~/`); nil when unset or empty.
    public var vaultPath: String?
    /// `PWNVAULT_KEYRING`: `.auto` unless set to `none`.
    public var keyring: KeyringMode
    /// `PWNVAULT_KEYRING_TIMEOUT_MS`: how long a keyring call may take before it is abandoned.
    public var keyringTimeoutMilliseconds: Int
    /// `PWNVAULT_KEYRING_PROMPT_TIMEOUT_MS`: how long a person may take to answer the keyring's dialog.
    public var keyringPromptTimeoutMilliseconds: Int
    /// `PWNVAULT_PASSPHRASE_FILE`; nil when unset or empty.
    public var passphraseFile: String?
    /// The validated HIBP API base (`APIURLPolicy`).
    public var apiBaseURL: URL
    /// The validated Pwned Passwords base (`APIURLPolicy`).
    public var passwordsBaseURL: URL
    /// `HIBP_API_KEY` when set and non-empty (redacted; `secret()` gives the key).
    public var environmentAPIKey: EnvironmentAPIKey?
    /// Whether `HIBP_API_KEY` is set and non-empty.
    public var hasAPIKeyInEnvironment: Bool { environmentAPIKey != nil }
    /// `PWNVAULT_SHARE`: show accounts only by label or `#id`.
    public var shareMode: Bool
    /// The region national phone numbers are read in, from the territory of the locale for telephone
    /// numbers (`LC_ALL`, else `LC_TELEPHONE`, else `LANG`: `en_GB.UTF-8` → `GB`, the POSIX order);
    /// nil for `C`, `POSIX` or a locale without a two-letter territory. Not checked against
    /// libphonenumber's regions here (that would load it): `PhoneNumbering` does, at the first number.
    public var telephoneRegion: PhoneRegion?
    /// `NO_COLOR` is set and non-empty.
    public var noColor: Bool
    /// `TERM`; nil when unset or empty.
    public var term: String?
    /// `PAGER`; nil when unset or empty.
    public var pager: String?
    /// The locale of character types: `LC_ALL`, else `LC_CTYPE`, else `LANG` (the first set and non-empty,
    /// as POSIX orders them); nil when none is.
    public var ctypeLocale: String?
    /// `HOME` when it is absolute; nil otherwise.
    public var home: String?
    /// `$XDG_DATA_HOME` when absolute, else `$HOME/.local/share`; nil without either.
    public var dataHome: String?
    /// `$XDG_CACHE_HOME` when absolute, else `$HOME/.cache`; nil without either.
    public var cacheHome: String?
    /// `$XDG_CONFIG_HOME` when absolute, else `$HOME/.config`; nil without either.
    public var configHome: String?
    /// Which of the variables in `documentation` are set and non-empty (so a hint can say "unset it").
    public var variablesSet: Set<String>

    /// Reads every setting from `environment` (pass `ProcessInfo.processInfo.environment`).
    /// Empty variables count as unset. Throws `SettingsError` for a value pwnvault will not guess
    /// about (an unknown keyring mode, a timeout that is not a number, an unsafe API address).
    public init(environment: [String: String]) throws {
        func value(_ name: String) -> String? {
            guard let v = environment[name], !v.isEmpty else { return nil }
            return v
        }

        vaultPath = value(Self.vaultVariable)
        passphraseFile = value(Self.passphraseFileVariable)

        /// One of a variable's named values, or `fallback` when it is unset; anything else is refused.
        func choice<T: RawRepresentable>(_ variable: String, default fallback: T, expected: String) throws -> T where T.RawValue == String {
            guard let raw = value(variable) else { return fallback }
            guard let chosen = T(rawValue: raw) else {
                throw SettingsError.invalidValue(variable: variable, value: raw, expected: expected)
            }
            return chosen
        }
        keyring = try choice(Self.keyringVariable, default: KeyringMode.auto, expected: msg("none or auto"))

        /// Milliseconds in `keyringTimeoutRange` from `variable`, or `fallback` when it is unset.
        func milliseconds(_ variable: String, default fallback: Int) throws -> Int {
            guard let raw = value(variable) else { return fallback }
            guard raw.allSatisfy({ ("0"..."9").contains($0) }), let ms = Int(raw), Self.keyringTimeoutRange.contains(ms) else {
                throw SettingsError.invalidValue(variable: variable, value: raw,
                                                 expected: msg("a number of milliseconds from 1 to 600000"))
            }
            return ms
        }
        keyringTimeoutMilliseconds = try milliseconds(Self.keyringTimeoutVariable, default: Self.defaultKeyringTimeoutMilliseconds)
        keyringPromptTimeoutMilliseconds = try milliseconds(Self.keyringPromptTimeoutVariable,
                                                            default: Self.defaultKeyringPromptTimeoutMilliseconds)

        apiBaseURL = try APIURLPolicy.validateAPIBase(value(Self.apiURLVariable) ?? Self.defaultAPIURL,
                                                      variable: Self.apiURLVariable)
        passwordsBaseURL = try APIURLPolicy.validateAPIBase(value(Self.passwordsURLVariable) ?? Self.defaultPasswordsURL,
                                                            variable: Self.passwordsURLVariable)
        environmentAPIKey = EnvironmentAPIKey(value(Self.apiKeyVariable))

        /// A whole number of seconds in `range` from `variable`, or `fallback` when it is unset.
        func seconds(_ variable: String, in range: ClosedRange<Int>, default fallback: Int) throws -> Int {
            guard let raw = value(variable) else { return fallback }
            guard raw.allSatisfy({ ("0"..."9").contains($0) }), let seconds = Int(raw), range.contains(seconds) else {
                throw SettingsError.invalidValue(variable: variable, value: raw,
                                                 expected: msg("a number of seconds from {1} to {2}", range.lowerBound, range.upperBound))
            }
            return seconds
        }
        httpTimeoutSeconds = try seconds(Self.httpTimeoutVariable, in: Self.httpTimeoutRange, default: Self.defaultHTTPTimeoutSeconds)
        maxWaitSeconds = try seconds(Self.maxWaitVariable, in: Self.maxWaitRange, default: Self.defaultMaxWaitSeconds)

        kAnonymity = try choice(Self.kAnonymityVariable, default: KAnonymityMode.auto, expected: msg("auto, require or off"))

        if let raw = value(Self.shareVariable) {
            shareMode = !["0", "no", "false", "off"].contains(raw.lowercased())
        } else {
            shareMode = false
        }
        telephoneRegion = (value("LC_ALL") ?? value("LC_TELEPHONE") ?? value("LANG")).flatMap(PhoneRegion.init(locale:))
        noColor = value("NO_COLOR") != nil
        term = value("TERM")
        pager = value("PAGER")
        ctypeLocale = value("LC_ALL") ?? value("LC_CTYPE") ?? value("LANG")

        func absolute(_ name: String) -> String? {
            guard let v = value(name), v.hasPrefix("/") else { return nil }
            return v
        }
        home = absolute("HOME")
        dataHome = absolute("XDG_DATA_HOME") ?? home.map { Self.join($0, ".local/share") }
        cacheHome = absolute("XDG_CACHE_HOME") ?? home.map { Self.join($0, ".cache") }
        configHome = absolute("XDG_CONFIG_HOME") ?? home.map { Self.join($0, ".config") }
        variablesSet = Set(Self.documentation.map(\.name).filter { value($0) != nil })
    }

    static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}

import FoundationEssentials
import PwnVaultCore

/// `pwnvault status`: where the vault is, how it was opened and why, what it holds, how it is protected.
enum StatusCommand: Command {
    static let spec = CommandSpec(
        name: "status",
        summary: msg("show the vault's path, how it was unlocked, its size and its key-derivation settings"),
        usage: [""],
        examples: [("pwnvault status", msg("where is my vault and is the keyring in use?")),
                   ("pwnvault status --json", msg("the same for a script"))])

    static let optionsType: any CommandOptions.Type = NoOptions.self

    static func run(_ context: Context) throws -> ExitStatus {
        let session = try context.openVault()
        var report = StatusReport(session: session, keyringNote: nil, absolutePaths: context.json)
        report.keyring = context.settings.keyring == .none ? nil : context.keyring.provider().identifier
        report.shareMode = context.shareReason?.english
        report.messages = Gettext.loaded?.catalog.map { "\($0.language) (\($0.folder))" }
        let key = LookupText.key(context)
        report.lookup = LookupText.label(context, key: key)
        if context.json {
            try context.console.json(report)
            return .success
        }
        let c = context.console
        let counts = report.counts
        let passes = Int(clamping: report.kdf.opslimit), mebibytes = report.kdf.memlimit / 1_048_576
        // Each name with its colon, as the language writes it; padded in terminal cells (a Chinese
        // name is two cells a character).
        let rows: [(String, String)] = [
            (msg("vault:"), report.path),
            (msg("unlocked with:"), report.unlockedWith == "keyring" ? msg("the desktop keyring ({1})", context.keyring.provider().name)
                                 : msg("the passphrase ({1})", report.keyringProblem ?? msg("keyring not used"))),
            (msg("accounts:"), report.accounts == 0 ? "0"
                : msg("{1} ({2} breached, {3} clean, {4} failed, {5} never checked)",
                      report.accounts, counts.breached, counts.clean, counts.error, counts.neverChecked)),
            (msg("key derivation:"), report.kdf.preset.map {
                msg(one: "Argon2id, {1} pass, {2} MiB ({3})", many: "Argon2id, {1} passes, {2} MiB ({3})", count: passes, passes, mebibytes, $0)
            } ?? msg(one: "Argon2id, {1} pass, {2} MiB", many: "Argon2id, {1} passes, {2} MiB", count: passes, passes, mebibytes)),
            (msg("format:"), msg("version {1}, vault id {2}", report.formatVersion, report.vaultID)),
            (msg("backup:"), report.backup ?? msg("none yet (made at the first change)")),
            (msg("share mode:"), context.shareReason.map { msg("on ({1})", $0) } ?? msg("off")),
            (msg("messages:"), report.messages ?? msg("English (built in)")),
            (msg("lookup:"), LookupText.describe(context, key: key)),
        ]
        let w = rows.map { TerminalCells.width($0.0) }.max()!
        for (k, v) in rows { c.hanging(TerminalCells.pad(k, to: w + 1), v).forEach { c.out($0) } }
        return .success
    }
}

/// What `status` (and `init --json`) reports; also its JSON form.
struct StatusReport: Encodable {
    struct KDF: Encodable { let algorithm = "argon2id13"; let opslimit: UInt64; let memlimit: UInt64; let preset: String? }
    struct Counts: Encodable { var breached = 0, clean = 0, error = 0, neverChecked = 0 }
    let path: String
    /// The vault's public random id, as in the keyring item's `vault-id` attribute.
    let vaultID: String
    let unlockedWith: String
    let keyringProblem: String?
    let accounts: Int
    let counts: Counts
    let kdf: KDF
    let formatVersion: Int
    let backup: String?
    /// Why share mode is on, or nil when it is off.
    var shareMode: String?
    /// Who serves the keyring (`KeyringProvider.identifier`: gnome-keyring, keepassxc, kwallet, other,
    /// unknown); nil when the keyring is turned off.
    var keyring: String?
    /// The message catalog in use (`zh_CN (/usr/local/share/locale)`), or nil for the built-in English.
    var messages: String?
    /// How `check` and `watch` look e-mail addresses up: "k-anonymity", "whole address" (`--k-anonymity=off`,
    /// a plan without the range search, or a fallback remembered), or "none" (`require` would stop).
    var lookup: String?

    /// `absolutePaths` (for `--json`): whole paths, as scripts need them; otherwise `~/…` for people.
    init(session: VaultSession, keyringNote: String?, absolutePaths: Bool = true) {
        let location = session.location
        let shown = { (p: String) in absolutePaths ? location.displayAbsolute(p) : location.display(p) }
        path = shown(location.path)
        vaultID = session.header.vaultIDHex
        switch session.method {
        case .keyring: unlockedWith = "keyring"; keyringProblem = keyringNote
        case let .passphrase(reason): unlockedWith = "passphrase"; keyringProblem = keyringNote ?? reason
        }
        accounts = session.payload.accounts.count
        var c = Counts()
        for a in session.payload.accounts {
            switch a.result.status {
            case .breached: c.breached += 1
            case .clean: c.clean += 1
            case .error: c.error += 1
            case .neverChecked: c.neverChecked += 1
            }
        }
        counts = c
        let h = session.header
        kdf = KDF(opslimit: h.kdf.opslimit, memlimit: h.kdf.memlimit, preset: h.kdf.name)
        formatVersion = Int(h.version)
        backup = FileManager.default.fileExists(atPath: session.store.backupPath) ? shown(session.store.backupPath) : nil
    }
}

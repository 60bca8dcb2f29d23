import PwnVaultCore

/// Why a command that must be given the passphrase itself (`reveal`, `passwd`) could not have it.
/// These commands skip the keyring and `PWNVAULT_PASSPHRASE_FILE` on purpose, so the hints name only
/// what they honour: a person typing, or an option on their own command line.
enum ProofOfKnowledgeError: UserFacingError {
    /// No terminal to ask on, and no `--passphrase-file` / `--passphrase-fd`.
    case noTerminal(command: String)
    /// `ack` named a sensitive breach (or one the catalog does not know) with no terminal and no
    /// `--passphrase-file` / `--passphrase-fd`: said the same whether or not the account is in it.
    case breachNeedsPassphrase
    /// `passwd`: the current passphrase was wrong.
    case wrongCurrentPassphrase

    var message: String {
        switch self {
        case let .noTerminal(command):
            return msg("{1} needs the passphrase typed at a terminal or named on its command line, and there is no terminal", command)
        case .breachNeedsPassphrase:
            return msg("a sensitive breach, or one the breach catalog does not know, is acknowledged by name only with the passphrase, and there is no terminal to type it")
        case .wrongCurrentPassphrase:
            return msg("wrong passphrase; the passphrase was not changed")
        }
    }

    var hint: String? {
        switch self {
        case .noTerminal:
            return msg("run it in a terminal, or pass --passphrase-file PATH or --passphrase-fd N (the first line is used)")
        case .breachNeedsPassphrase:
            return msg("pass --passphrase-file PATH or --passphrase-fd N (PWNVAULT_PASSPHRASE_FILE is not used here), or run it in a terminal; without breach names, 'pwnvault ack ACCOUNT' acknowledges everything the account was found in")
        case .wrongCurrentPassphrase:
            return msg("only the current passphrase can replace it, even where the keyring opens the vault; if it is forgotten, the keyring still opens the vault for list, check, add and remove, and a new vault (pwnvault init --vault PATH) can take the accounts with a new passphrase")
        }
    }

    var exitStatus: ExitStatus { .authentication }
}

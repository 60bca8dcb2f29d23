import PwnVaultCore

/// What the ui asks the runner (`VaultUI`) to do outside the state: open the vault with a passphrase,
/// run a check, save. Each reports back as a `UIEvent`. Passphrases travel in their `SecretField`
/// (the runner takes them out, and that empties the field).
enum UIEffect {
    case reveal(id: Int, passphrase: SecretField, seconds: Double)
    case unlock(passphrase: SecretField)
    case check(ids: [Int], what: String)
    case cancelCheck
    case acknowledge(id: Int)
    case add(SecretField)
    case readContacts(path: String)
    case importPicked([(ParsedAccount, AccountLabel?)])
    case quit
}

/// Proof that the person at the terminal typed the vault's passphrase in this run (or gave it on this
/// command line): the one thing that lets `Disclosure` hand out an account unmasked or name a
/// sensitive breach. Only `VaultSession.open(requirePassphrase: true)` makes one; a session opened
/// through the keyring has none.
public struct RevealGrant: Sendable {
    init() {}
}

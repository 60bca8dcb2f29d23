/// What a new passphrase must pass before `init` or `passwd` wraps the vault key under it: zxcvbn's
/// strength estimate, then Pwned Passwords by k-anonymity (five hex characters of its SHA-1 leave,
/// padded answers; `PwnedPasswordsClient`).
///
/// The threshold, 50 bits: the vault file is the attacker's to guess at offline, at whatever rate
/// Argon2id allows them, so the passphrase must stand on its own. zxcvbn (Debian's libzxcvbn 2.5)
/// gives `password` 0 bits, keyboard walks such as `qwertyuiop` or `1qaz2wsx3edc` 10–22, `correct
/// horse` 28, `the quick brown fox` and `Tr0ub4dor&3` 47, `correct horse battery` 48; four words picked
/// at random from a list (the way Diceware picks them) get 59–77 (`apple house water light` 59, `glad
/// tiny vessel orbit` 69), and four words from EFF's 7,776-word list carry 51.7 bits of real entropy,
/// which is what 50 asks for. `--weak-passphrase-ok` is the way past it, for those who chose otherwise.
///
/// The strength is estimated first, on this machine: a weak passphrase is refused without asking
/// the network anything. What could not be checked (no libzxcvbn, no network) does not block; it is
/// returned as one line to show.
public struct NewPassphraseCheck {
    /// The fewest bits zxcvbn must estimate (see above).
    public static let minimumBits = 50.0

    /// How many times Pwned Passwords has seen a password (0: never); throws when it cannot tell.
    public typealias Lookup = (PasswordHash) throws -> Int

    private let lookup: Lookup
    private let estimate: (SecretBytes) throws -> Double

    /// - Parameters:
    ///   - lookup: the Pwned Passwords count for a hash (the range API, through `PwnedPasswordsClient`).
    ///   - estimate: zxcvbn's entropy in bits; replaced in tests.
    public init(lookup: @escaping Lookup, estimate: @escaping (SecretBytes) throws -> Double = { try Zxcvbn.entropyBits($0) }) {
        self.lookup = lookup
        self.estimate = estimate
    }

    /// Throws `PassphraseError.tooWeak` or `.seenInBreaches`; returns what could not be checked, one
    /// line each, for the caller to show.
    public func check(_ passphrase: SecretBytes) throws -> [String] {
        var notes: [String] = []
        do {
            let bits = try estimate(passphrase)
            if bits < Self.minimumBits {
                throw PassphraseError.tooWeak(bits: Int(bits.rounded(.down)), minimum: Int(Self.minimumBits))
            }
        } catch let error as Zxcvbn.Unavailable {
            notes.append(msg("the passphrase's strength was not estimated: {1}", error.description))
        }
        let times: Int
        do {
            times = try lookup(PasswordHash(password: passphrase))
        } catch let error as CancellationError {
            throw error
        } catch {
            let reason = (error as? UserFacingError)?.message ?? msg("network error")
            notes.append(msg("the passphrase was not checked against Pwned Passwords ({1})", Sanitizer.singleLine(reason)))
            return notes
        }
        if times > 0 { throw PassphraseError.seenInBreaches(times: times) }
        return notes
    }
}

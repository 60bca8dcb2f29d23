/// Where the HIBP API key of a run comes from, and the rules for what a key looks like.
public enum APIKeySource: String, Sendable, Equatable {
    /// `HIBP_API_KEY`, for scripts.
    case environment
    /// The desktop keyring (`pwnvault config api-key`).
    case keyring
    /// HIBP's public test key: only for accounts on `hibp-integration-tests.com`.
    case publicTestKey
}

public enum APIKey {
    /// HIBP's documented test key; it works only for the test domain.
    public static let publicTestKey = "00000000000000000000000000000000"
    /// The domain whose accounts the public test key may look up.
    public static let testDomain = "hibp-integration-tests.com"

    /// Whether `bytes` has the shape of an HIBP key: 32 hexadecimal characters.
    public static func isWellFormed(_ key: SecretBytes) -> Bool {
        key.count == 32 && key.withUnsafeBytes { $0.allSatisfy { b in
            (0x30...0x39).contains(b) || (0x41...0x46).contains(b) || (0x61...0x66).contains(b)
        } }
    }

    /// Whether every account is on the test domain, so the public test key may be used.
    static func allOnTestDomain(_ normalizedAccounts: [String]) -> Bool {
        !normalizedAccounts.isEmpty && normalizedAccounts.allSatisfy { $0.lowercased().hasSuffix("@" + testDomain) }
    }

    /// The key for a run: `HIBP_API_KEY`, else the keyring's, else the public test key when every
    /// account is on the test domain. Throws `APIKeyError` when none applies.
    public static func resolve(environmentValue: String?, keyring: Keyring,
                               allOnTestDomain: Bool) throws -> (key: SecretBytes, source: APIKeySource) {
        try resolve(environmentKey: EnvironmentAPIKey(environmentValue), keyring: keyring, allOnTestDomain: allOnTestDomain)
    }

    /// The same, with `HIBP_API_KEY` as `Settings` read it.
    public static func resolve(environmentKey: EnvironmentAPIKey?, keyring: Keyring,
                               allOnTestDomain: Bool) throws -> (key: SecretBytes, source: APIKeySource) {
        if let environmentKey {
            let key = environmentKey.secret()
            guard isWellFormed(key) else { throw APIKeyError.malformed(source: .environment) }
            return (key, .environment)
        }
        var keyringProblem: KeyringError?
        do {
            if let key = try keyring.lookup(.apiKey) {
                guard isWellFormed(key) else { throw APIKeyError.malformed(source: .keyring) }
                return (key, .keyring)
            }
        } catch let e as KeyringError {
            keyringProblem = e
        }
        if allOnTestDomain {
            return (SecretBytes(copying: Array(publicTestKey.utf8)), .publicTestKey)
        }
        throw APIKeyError.none(keyringProblem: keyringProblem)
    }
}

/// Why no usable API key was found.
public enum APIKeyError: UserFacingError, Equatable {
    case none(keyringProblem: KeyringError?)
    case malformed(source: APIKeySource)

    public var message: String {
        switch self {
        case let .none(problem?):
            return msg("no Have I Been Pwned API key: none in HIBP_API_KEY, and {1}", problem.reason)
        case .none(nil):
            return msg("no Have I Been Pwned API key is stored (searching accounts needs one)")
        case .malformed(.environment): return msg("HIBP_API_KEY does not look like an API key (32 hexadecimal characters)")
        case .malformed: return msg("the API key in the keyring does not look like an API key (32 hexadecimal characters)")
        }
    }

    public var hint: String? {
        switch self {
        case .none: return msg("get a key at https://haveibeenpwned.com/API/Key, then run 'pwnvault config api-key' (or set HIBP_API_KEY for scripts); accounts on {1} work without one", APIKey.testDomain)
        case .malformed: return msg("store it again with 'pwnvault config api-key'")
        }
    }

    public var exitStatus: ExitStatus { .apiAuthorization }
}

/// The Argon2id cost of turning a passphrase into the key that wraps the vault key
/// (Docs/VAULT_FORMAT.md §6).
///
/// Any pair within `minimum ... maximum` is valid in a vault header; a header outside those bounds
/// is rejected before Argon2id runs. pwnvault names three presets.
public struct KDFParameters: Equatable, Sendable {
    /// Argon2id passes (`t`).
    public var opslimit: UInt64
    /// Argon2id memory, in bytes.
    public var memlimit: UInt64

    public init(opslimit: UInt64, memlimit: UInt64) {
        self.opslimit = opslimit
        self.memlimit = memlimit
    }

    /// 2 passes, 64 MiB: about 60 ms. The lowest cost a vault may use; used by the tests.
    public static let interactive = KDFParameters(opslimit: Sodium.opsInteractive, memlimit: Sodium.memInteractive)
    /// 3 passes, 256 MiB: about 350 ms. The default.
    public static let moderate = KDFParameters(opslimit: Sodium.opsModerate, memlimit: Sodium.memModerate)
    /// 4 passes, 1 GiB: 2–4 s and 1 GB of memory.
    public static let sensitive = KDFParameters(opslimit: Sodium.opsSensitive, memlimit: Sodium.memSensitive)
    /// The cost new vaults get unless the user asks for another.
    public static let `default` = moderate

    /// The lowest limits a reader accepts (the interactive preset): lower ones mean the header was altered.
    public static let minimum = interactive
    /// The highest limits a reader accepts (10 passes, 4 GiB): higher ones could exhaust the machine.
    public static let maximum = KDFParameters(opslimit: 10, memlimit: 4 << 30)

    /// The presets by name, in increasing cost.
    public static let presets: [(name: String, parameters: KDFParameters)] = [
        ("interactive", .interactive), ("moderate", .moderate), ("sensitive", .sensitive),
    ]

    /// The preset called `name` (`interactive`, `moderate`, `sensitive`), or nil.
    public static func named(_ name: String) -> KDFParameters? {
        presets.first { $0.name == name }?.parameters
    }

    /// The preset's name when these are a preset's limits, else nil.
    public var name: String? {
        Self.presets.first { $0.parameters == self }?.name
    }

    /// Whether both limits lie within `minimum ... maximum`, and memlimit is whole KiB
    /// (Docs/VAULT_FORMAT.md §6): libsodium hands Argon2 `memlimit / 1024` KiB, so the low 10 bits
    /// would change nothing the passphrase check could notice.
    public var isWithinBounds: Bool {
        (Self.minimum.opslimit...Self.maximum.opslimit).contains(opslimit)
            && (Self.minimum.memlimit...Self.maximum.memlimit).contains(memlimit)
            && memlimit % 1024 == 0
    }

    /// "opslimit 3, 256 MiB" (or the memory in bytes when it is not whole MiB), for messages.
    public var summary: String {
        let mib = memlimit >> 20
        return "opslimit \(opslimit), " + (mib << 20 == memlimit ? "\(mib) MiB" : "\(memlimit) bytes")
    }
}

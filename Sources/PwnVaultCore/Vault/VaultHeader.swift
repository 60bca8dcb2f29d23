/// The 200-byte header of a vault file (Docs/VAULT_FORMAT.md §4). Every field is public
/// information; none of them is trusted until `VaultFile.authenticates` has checked the MAC.
///
/// Values come only from `VaultFile` (`readHeader`, `create`, `rewrap`), which enforce the format's
/// rules; there is no public initialiser.
public struct VaultHeader: Equatable, Sendable {
    /// The header's length in bytes; the payload box starts here.
    public static let size = 200
    /// `PWNVAULT`.
    public static let magic: [UInt8] = Array("PWNVAULT".utf8)
    /// The only format version this build reads and writes.
    public static let currentVersion: UInt16 = 1
    /// KDF id 1: Argon2id v1.3 (`crypto_pwhash_ALG_ARGON2ID13`).
    public static let argon2id13: UInt8 = 1
    /// Length of the vault id in bytes.
    public static let vaultIDSize = 16
    /// Length of the wrapped vault key: the 32-byte key plus the secretbox tag.
    public static let wrappedKeySize = 48
    /// Length of the header MAC.
    public static let macSize = 32

    /// Format version (always `currentVersion` once read).
    public let version: UInt16
    /// Reserved flags (always 0 in version 1).
    public let flags: UInt16
    /// Key-derivation algorithm id (always `argon2id13` in version 1).
    public let kdfID: UInt8
    /// Argon2id limits for the passphrase wrap.
    public let kdf: KDFParameters
    /// Argon2id salt (16 bytes); new on every passphrase change.
    public let salt: [UInt8]
    /// Random id of the vault (16 bytes); never changes; names its keyring item.
    public let vaultID: [UInt8]
    /// Nonce of the key wrap (24 bytes).
    public let wrapNonce: [UInt8]
    /// The vault key sealed under the passphrase-derived key (48 bytes).
    public let wrappedKey: [UInt8]
    /// Nonce of the payload box (24 bytes); new on every save.
    public let payloadNonce: [UInt8]
    /// Length of the payload box `L` (padded plaintext + 16).
    public let payloadBoxLength: UInt64
    /// Keyed BLAKE2b-256 of bytes 0..<168 under the header MAC key.
    public let mac: [UInt8]

    init(kdf: KDFParameters, salt: [UInt8], vaultID: [UInt8], wrapNonce: [UInt8], wrappedKey: [UInt8],
         payloadNonce: [UInt8], payloadBoxLength: UInt64, mac: [UInt8]) {
        precondition(salt.count == Sodium.saltBytes && vaultID.count == Self.vaultIDSize
                     && wrapNonce.count == Sodium.nonceBytes && wrappedKey.count == Self.wrappedKeySize
                     && payloadNonce.count == Sodium.nonceBytes && mac.count == Self.macSize,
                     "vault header field of the wrong size")
        self.version = Self.currentVersion; self.flags = 0; self.kdfID = Self.argon2id13
        self.kdf = kdf; self.salt = salt; self.vaultID = vaultID; self.wrapNonce = wrapNonce
        self.wrappedKey = wrappedKey; self.payloadNonce = payloadNonce
        self.payloadBoxLength = payloadBoxLength; self.mac = mac
    }

    /// The vault id in lower-case hex (32 characters): the keyring item's `vault-id`.
    public var vaultIDHex: String { Sodium.hex(vaultID) }

    /// The length the whole file must have: `size + payloadBoxLength`.
    public var fileLength: Int { Self.size + Int(payloadBoxLength) }

    /// The 200 header bytes, as written at the start of the file.
    public var bytes: [UInt8] { authenticatedBytes + mac }

    /// Bytes 0..<168: everything the MAC covers.
    var authenticatedBytes: [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(Layout.mac)
        out += Self.magic
        out.appendBigEndian(version)
        out.appendBigEndian(flags)
        out.append(kdfID)
        out += [0, 0, 0]
        out.appendBigEndian(kdf.opslimit)
        out.appendBigEndian(kdf.memlimit)
        out += salt
        out += vaultID
        out += wrapNonce
        out += wrappedKey
        out += payloadNonce
        out.appendBigEndian(payloadBoxLength)
        assert(out.count == Layout.mac)
        return out
    }

    /// A copy with other fields replaced (the MAC is not recomputed here: `VaultFile` does that).
    func replacing(kdf: KDFParameters? = nil, salt: [UInt8]? = nil, wrapNonce: [UInt8]? = nil,
                   wrappedKey: [UInt8]? = nil, payloadNonce: [UInt8]? = nil, payloadBoxLength: UInt64? = nil,
                   mac: [UInt8]? = nil) -> VaultHeader {
        VaultHeader(kdf: kdf ?? self.kdf, salt: salt ?? self.salt, vaultID: vaultID,
                    wrapNonce: wrapNonce ?? self.wrapNonce, wrappedKey: wrappedKey ?? self.wrappedKey,
                    payloadNonce: payloadNonce ?? self.payloadNonce,
                    payloadBoxLength: payloadBoxLength ?? self.payloadBoxLength, mac: mac ?? self.mac)
    }

    /// Field offsets (Docs/VAULT_FORMAT.md §4).
    enum Layout {
        static let version = 8, flags = 10, kdfID = 12, reserved = 13, opslimit = 16, memlimit = 24
        static let salt = 32, vaultID = 48, wrapNonce = 64, wrappedKey = 88, payloadNonce = 136
        static let payloadBoxLength = 160, mac = 168
    }

    /// Parses the header at the start of `file`, making the checks that need no key, in the order of
    /// Docs/VAULT_FORMAT.md §9 steps 1–7. The file's total length (step 8) is `VaultFile`'s to check.
    init(validating file: [UInt8]) throws {
        let magicPrefix = min(file.count, Self.magic.count)
        guard file[..<magicPrefix].elementsEqual(Self.magic[..<magicPrefix]) else { throw VaultFormatError.notAVault }
        guard file.count >= Layout.flags else { throw VaultFormatError.truncated }
        let version = file.readBigEndian(UInt16.self, at: Layout.version)
        guard version == Self.currentVersion else { throw VaultFormatError.unsupportedVersion(version) }
        guard file.count >= Self.size else { throw VaultFormatError.truncated }

        let flags = file.readBigEndian(UInt16.self, at: Layout.flags)
        guard flags == 0 else { throw VaultFormatError.unsupported(feature: "header flags 0x\(String(flags, radix: 16))") }
        let kdfID = file[Layout.kdfID]
        guard kdfID == Self.argon2id13 else { throw VaultFormatError.unsupported(feature: "key-derivation algorithm \(kdfID)") }
        guard file[Layout.reserved..<Layout.opslimit].allSatisfy({ $0 == 0 }) else {
            throw VaultFormatError.tampered(reason: phrase("reserved bytes are not zero"))
        }
        let kdf = KDFParameters(opslimit: file.readBigEndian(UInt64.self, at: Layout.opslimit),
                                memlimit: file.readBigEndian(UInt64.self, at: Layout.memlimit))
        guard kdf.isWithinBounds else {
            throw VaultFormatError.tampered(reason: kdf.memlimit % 1024 == 0 ? "Argon2id limits \(kdf.summary) are out of bounds"
                                                                            : phrase("the Argon2id memory limit is not a whole number of KiB"))
        }

        let boxLength = file.readBigEndian(UInt64.self, at: Layout.payloadBoxLength)
        guard boxLength >= UInt64(Sodium.macBytes), PayloadCodec.isValidPlaintextSize(boxLength - UInt64(Sodium.macBytes)) else {
            throw VaultFormatError.damaged(reason: "the payload length \(boxLength) in the header is impossible")
        }

        func field(_ start: Int, _ count: Int) -> [UInt8] { Array(file[start..<(start + count)]) }
        self.init(kdf: kdf, salt: field(Layout.salt, Sodium.saltBytes), vaultID: field(Layout.vaultID, Self.vaultIDSize),
                  wrapNonce: field(Layout.wrapNonce, Sodium.nonceBytes),
                  wrappedKey: field(Layout.wrappedKey, Self.wrappedKeySize),
                  payloadNonce: field(Layout.payloadNonce, Sodium.nonceBytes), payloadBoxLength: boxLength,
                  mac: field(Layout.mac, Self.macSize))
    }
}

extension VaultHeader: CustomStringConvertible {
    /// Public facts only (the header holds no secret, but a wrapped key is no one's business on screen).
    public var description: String {
        "VaultHeader(v\(version), vault \(vaultIDHex), Argon2id \(kdf.summary), payload \(payloadBoxLength) bytes)"
    }
}

private extension Array where Element == UInt8 {
    mutating func appendBigEndian<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }

    func readBigEndian<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> T {
        var value: T = 0
        for byte in self[offset..<(offset + MemoryLayout<T>.size)] { value = value << 8 | T(byte) }
        return value
    }
}

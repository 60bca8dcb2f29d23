import Foundation
import XCTest
@testable import PwnVaultCore

/// Round trips and every rejection of Docs/VAULT_FORMAT.md §9, on real libsodium (no mocks).
/// Argon2id runs at the interactive preset only, and only where a test is about the passphrase.
final class VaultFileTests: XCTestCase {
    private typealias Vector = VaultFormatVectorTests

    /// The appendix A file and its key: a valid vault that needs no Argon2id to open.
    private var vectorFile: [UInt8] { [UInt8](hex: Vector.expectedFile) }
    private var vectorKey: SecretBytes { SecretBytes(copying: Vector.vaultKey) }
    private var vectorPassphrase: SecretBytes { SecretBytes(copying: Vector.passphrase) }

    private func passphrase(_ text: String) -> SecretBytes { SecretBytes(copying: Array(text.utf8)) }

    private func assertThrows(_ expected: VaultFormatError, _ message: String = "", file: StaticString = #filePath,
                              line: UInt = #line, _ body: () throws -> Any) {
        XCTAssertThrowsError(try body(), message, file: file, line: line) { error in
            XCTAssertEqual(error as? VaultFormatError, expected, message, file: file, line: line)
        }
    }

    // MARK: Round trips

    func testCreateThenOpenWithTheKeyReturnsThePayload() throws {
        let created = try VaultFile.create(passphrase: passphrase("hunter2 but longer"), kdf: .interactive,
                                           payload: Vector.payload)
        XCTAssertEqual(created.key.count, 32)
        XCTAssertEqual(created.header.kdf, .interactive)
        XCTAssertEqual(created.header.vaultIDHex.count, 32)
        XCTAssertEqual(created.bytes.count, created.header.fileLength)
        XCTAssertEqual(try VaultFile.readHeader(created.bytes), created.header)
        XCTAssertTrue(VaultFile.authenticates(created.header, key: created.key))

        let opened = try VaultFile.open(created.bytes, key: created.key)
        XCTAssertEqual(opened.header, created.header)
        XCTAssertEqual(opened.payload, Vector.payload)
    }

    func testThePassphraseUnwrapsTheSameKeyThatCreateReturned() throws {
        let created = try VaultFile.create(passphrase: passphrase("tr0ub4dor&3"), kdf: .interactive,
                                           payload: VaultPayload())
        let unwrapped = try VaultFile.unwrapKey(try VaultFile.readHeader(created.bytes), passphrase: passphrase("tr0ub4dor&3"))
        XCTAssertTrue(unwrapped.isEqual(to: created.key))
        XCTAssertEqual(try VaultFile.open(created.bytes, key: unwrapped).payload, VaultPayload())
    }

    func testTwoNewVaultsShareNoRandomValue() throws {
        let a = try VaultFile.create(passphrase: passphrase("same"), kdf: .interactive, payload: VaultPayload())
        let b = try VaultFile.create(passphrase: passphrase("same"), kdf: .interactive, payload: VaultPayload())
        XCTAssertFalse(a.key.isEqual(to: b.key))
        XCTAssertNotEqual(a.header.salt, b.header.salt)
        XCTAssertNotEqual(a.header.vaultID, b.header.vaultID)
        XCTAssertNotEqual(a.header.wrapNonce, b.header.wrapNonce)
        XCTAssertNotEqual(a.header.payloadNonce, b.header.payloadNonce)
        XCTAssertNotEqual(a.header.wrappedKey, b.header.wrappedKey)
    }

    func testSealKeepsTheWrapButRefreshesThePayloadNonceAndMAC() throws {
        let original = try VaultFile.readHeader(vectorFile)
        var payload = Vector.payload
        payload.accounts.removeFirst()
        let first = try VaultFile.seal(payload, header: original, key: vectorKey)
        let second = try VaultFile.seal(payload, header: original, key: vectorKey)
        XCTAssertNotEqual(first, second, "every save has a fresh payload nonce")

        let resealed = try VaultFile.readHeader(first)
        XCTAssertEqual(resealed.vaultID, original.vaultID)
        XCTAssertEqual(resealed.salt, original.salt)
        XCTAssertEqual(resealed.wrapNonce, original.wrapNonce)
        XCTAssertEqual(resealed.wrappedKey, original.wrappedKey)
        XCTAssertEqual(resealed.kdf, original.kdf)
        XCTAssertNotEqual(resealed.payloadNonce, original.payloadNonce)
        XCTAssertNotEqual(resealed.payloadNonce, try VaultFile.readHeader(second).payloadNonce)
        XCTAssertNotEqual(resealed.mac, original.mac)

        XCTAssertEqual(try VaultFile.open(first, key: vectorKey).payload, payload)
        let unwrapped = try VaultFile.unwrapKey(resealed, passphrase: vectorPassphrase)
        XCTAssertTrue(unwrapped.isEqual(to: vectorKey), "the passphrase still opens a resealed vault")
    }

    func testTheFileGrowsInWholeBlocksOf4096Bytes() throws {
        let header = try VaultFile.readHeader(vectorFile)
        XCTAssertEqual(try VaultFile.seal(VaultPayload(), header: header, key: vectorKey).count, 200 + 4096 + 16)

        var payload = VaultPayload(nextID: 201)
        for id in 1...200 {
            payload.accounts.append(Account(id: id, entered: "user\(id)@example.org", normalized: "user\(id)@example.org",
                                            kind: .email, label: nil, addedAt: Vector.date(2024, 1, 1, 0, 0, 0, 0)))
        }
        let bytes = try VaultFile.seal(payload, header: header, key: vectorKey)
        XCTAssertGreaterThan(bytes.count, 200 + 4096 + 16)
        XCTAssertEqual((bytes.count - 200 - 16) % 4096, 0)
        XCTAssertEqual(try VaultFile.open(bytes, key: vectorKey).payload, payload)
    }

    // MARK: Every alteration is rejected

    func testEveryFlippedHeaderByteIsRejected() throws {
        let original = vectorFile
        let key = vectorKey
        for offset in 0..<VaultHeader.size {
            for mask: UInt8 in [0x01, 0x80, 0xff] {
                var bytes = original
                bytes[offset] ^= mask
                let label = "byte \(offset) ^ \(mask)"
                XCTAssertThrowsError(try VaultFile.open(bytes, key: key), label) { error in
                    guard let error = error as? VaultFormatError else { return XCTFail("\(label): \(error)") }
                    switch offset {
                    case 0..<8: XCTAssertEqual(error, .notAVault, label)
                    case 8..<10: XCTAssertEqual(error, .unsupportedVersion(1 ^ (offset == 9 ? UInt16(mask) : UInt16(mask) << 8)), label)
                    case 10..<13: guard case .unsupported = error else { return XCTFail("\(label): \(error)") }
                    case 13..<16: XCTAssertEqual(error, .tampered(reason: "reserved bytes are not zero"), label)
                    case 16..<32:   // limits: out of bounds, or in bounds and then caught by the MAC
                        if case .tampered = error {} else { XCTAssertEqual(error, .keyMismatch, label) }
                    case 160..<168:  // the payload length: impossible, or disagreeing with the file's length
                        switch error {
                        case .truncated, .damaged: break
                        default: XCTFail("\(label): \(error)")
                        }
                    default:        // salt, id, nonces, wrapped key, MAC: only the MAC can tell
                        XCTAssertEqual(error, .keyMismatch, label)
                    }
                }
            }
        }
    }

    func testSampledFlippedPayloadBytesAreRejected() throws {
        let original = vectorFile
        let key = vectorKey
        var offsets = Array(stride(from: 200, to: original.count, by: 61))
        offsets += [200, 215, 216, original.count - 1]
        for offset in offsets {
            var bytes = original
            bytes[offset] ^= 0x01
            assertThrows(.damaged(reason: "the payload does not decrypt"), "byte \(offset)") {
                try VaultFile.open(bytes, key: key)
            }
        }
    }

    func testEveryTruncationIsRejected() throws {
        let original = vectorFile
        let key = vectorKey
        for length in 0..<original.count {
            let bytes = Array(original.prefix(length))
            assertThrows(.truncated, "length \(length)") { try VaultFile.readHeader(bytes) }
            assertThrows(.truncated, "length \(length)") { try VaultFile.open(bytes, key: key) }
        }
    }

    func testTrailingBytesAreRejected() throws {
        for extra in [[UInt8](repeating: 0, count: 1), [UInt8](repeating: 0, count: 4096)] {
            let bytes = vectorFile + extra
            assertThrows(.damaged(reason: "\(extra.count) unexpected bytes follow the payload")) {
                try VaultFile.open(bytes, key: self.vectorKey)
            }
        }
    }

    func testOtherFilesAreNotVaults() throws {
        assertThrows(.notAVault) { try VaultFile.readHeader(Array("hello, world\n".utf8)) }
        assertThrows(.notAVault) { try VaultFile.readHeader(Array("PWNVAULX".utf8) + Array(vectorFile.dropFirst(8))) }
        assertThrows(.notAVault) { try VaultFile.readHeader(Array("pwnvault".utf8)) }
        assertThrows(.truncated, "an empty file may be a vault cut short") { try VaultFile.readHeader([]) }
        assertThrows(.truncated) { try VaultFile.readHeader(Array("PWNV".utf8)) }
    }

    func testANewerVersionIsUnsupportedEvenWithAShorterHeader() throws {
        assertThrows(.unsupportedVersion(2)) { try VaultFile.readHeader(Array("PWNVAULT".utf8) + [0, 2]) }
    }

    // MARK: Argon2id limits

    func testKDFLimitsOutOfBoundsAreRejectedWithoutAPassphrase() throws {
        let outOfBounds: [(UInt64, UInt64)] = [
            (1, 64 << 20), (0, 64 << 20), (2, 32 << 20), (2, (64 << 20) - 1), (1, 8 << 10),
            (11, 64 << 20), (2, (4 << 30) + 1), (UInt64.max, UInt64.max),
        ]
        for (ops, mem) in outOfBounds {
            let bytes = withLimits(ops, mem, in: vectorFile)
            XCTAssertThrowsError(try VaultFile.readHeader(bytes), "\(ops), \(mem)") { error in
                guard case .tampered = error as? VaultFormatError else { return XCTFail("\(ops), \(mem): \(error)") }
            }
        }
        // A memlimit that is not whole KiB: Argon2 would get the same KiB count (the unwrap would
        // succeed and only the MAC would notice), so it is refused before any passphrase (§6).
        for mem: UInt64 in [(64 << 20) + 1, (256 << 20) + 1023, (4 << 30) - 512] {
            XCTAssertThrowsError(try VaultFile.readHeader(withLimits(2, mem, in: vectorFile)), "\(mem)") { error in
                XCTAssertEqual(error as? VaultFormatError, .tampered(reason: "the Argon2id memory limit is not a whole number of KiB"))
            }
        }
        // The bounds themselves are accepted by the keyless checks; the MAC then notices the change.
        for (ops, mem) in [(UInt64(2), UInt64(64 << 20)), (10, 4 << 30), (3, 256 << 20)] {
            let bytes = withLimits(ops, mem, in: vectorFile)
            XCTAssertEqual(try VaultFile.readHeader(bytes).kdf, KDFParameters(opslimit: ops, memlimit: mem))
            if ops != 2 { assertThrows(.keyMismatch) { try VaultFile.open(bytes, key: self.vectorKey) } }
        }
    }

    func testUnwrapChecksTheBoundsBeforeRunningArgon2id() throws {
        // Limits that libsodium itself refuses at once: if unwrapKey ran Argon2id before checking
        // the bounds, it would report a failed key derivation instead of a tampered header.
        let header = try VaultFile.readHeader(vectorFile)
        for kdf in [KDFParameters(opslimit: 0, memlimit: 64 << 20), KDFParameters(opslimit: 2, memlimit: 1 << 62)] {
            XCTAssertNil(Sodium.deriveKey(passphrase: vectorPassphrase, salt: header.salt, opslimit: kdf.opslimit,
                                          memlimit: kdf.memlimit), "premise: libsodium refuses \(kdf)")
            let altered = header.replacing(kdf: kdf)
            XCTAssertThrowsError(try VaultFile.unwrapKey(altered, passphrase: vectorPassphrase)) { error in
                guard case .tampered = error as? VaultFormatError else { return XCTFail("\(kdf): \(error)") }
            }
        }
    }

    // MARK: Passphrase and keys

    func testAWrongPassphraseIsAnAuthenticationError() throws {
        let header = try VaultFile.readHeader(vectorFile)
        for wrong in ["correct horse battery stapl", "Correct horse battery staple", ""] {
            assertThrows(.wrongPassphrase, wrong) { try VaultFile.unwrapKey(header, passphrase: self.passphrase(wrong)) }
        }
        XCTAssertEqual(VaultFormatError.wrongPassphrase.exitStatus, .authentication)
    }

    func testASwappedSaltOrWrapNonceLooksLikeAWrongPassphraseAndFailsTheMAC() throws {
        let other = Sodium.randomData(24)
        let alterations: [(String, Range<Int>)] = [("salt", 32..<48), ("wrap nonce", 64..<88)]
        for (name, range) in alterations {
            var bytes = vectorFile
            bytes.replaceSubrange(range, with: other.prefix(range.count))
            let header = try VaultFile.readHeader(bytes)   // nothing a keyless check can see
            assertThrows(.wrongPassphrase, name) { try VaultFile.unwrapKey(header, passphrase: self.vectorPassphrase) }
            assertThrows(.keyMismatch, name) { try VaultFile.open(bytes, key: self.vectorKey) }
        }
    }

    func testRaisedLimitsWithinBoundsLookLikeAWrongPassphrase() throws {
        let bytes = withLimits(3, 64 << 20, in: vectorFile)
        assertThrows(.wrongPassphrase) { try VaultFile.unwrapKey(try VaultFile.readHeader(bytes), passphrase: self.vectorPassphrase) }
    }

    func testAnAlteredHeaderThatStillUnwrapsIsTampered() throws {
        var bytes = vectorFile
        bytes[48] ^= 0x01   // the vault id is not an input of the wrap, only of the MAC
        let header = try VaultFile.readHeader(bytes)
        assertThrows(.tampered(reason: "the header does not match the key it wraps")) {
            try VaultFile.unwrapKey(header, passphrase: self.vectorPassphrase)
        }
    }

    func testAKeyOfAnotherVaultIsAKeyMismatch() throws {
        let other = SecretBytes.random(count: 32)
        assertThrows(.keyMismatch) { try VaultFile.open(self.vectorFile, key: other) }
        XCTAssertFalse(VaultFile.authenticates(try VaultFile.readHeader(vectorFile), key: other))
        XCTAssertEqual(VaultFormatError.keyMismatch.exitStatus, .keyring)

        // Another vault made to carry this vault's id, as a keyring lookup by id would meet it.
        let impostor = try VaultFile.create(passphrase: vectorPassphrase, kdf: .interactive, payload: VaultPayload(),
                                            key: SecretBytes.random(count: 32), salt: Vector.salt, vaultID: Vector.vaultID,
                                            wrapNonce: Vector.wrapNonce, payloadNonce: Vector.payloadNonce)
        XCTAssertEqual(impostor.header.vaultIDHex, try VaultFile.readHeader(vectorFile).vaultIDHex)
        assertThrows(.keyMismatch) { try VaultFile.open(impostor.bytes, key: self.vectorKey) }
        assertThrows(.keyMismatch) { try VaultFile.open(self.vectorFile, key: impostor.key) }
    }

    func testAKeyOfTheWrongLengthIsAMismatchNotACrash() throws {
        for count in [0, 16, 31, 33, 64] {
            assertThrows(.keyMismatch, "\(count) bytes") { try VaultFile.open(self.vectorFile, key: SecretBytes.random(count: count)) }
        }
    }

    // MARK: The plaintext inside an authentic file

    func testNonZeroPaddingInAnAuthenticFileIsRejected() throws {
        var plaintext = PayloadCodecTests.plaintext(json: Vector.json)
        plaintext[plaintext.count - 1] = 1
        let bytes = try authenticFile(plaintext: plaintext)
        assertThrows(.damaged(reason: "the payload padding is not zero")) { try VaultFile.open(bytes, key: self.vectorKey) }
    }

    func testUnknownJSONFieldsInAnAuthenticFileAreKeptForTheNextSave() throws {
        let json = Vector.json
            .replacingOccurrences(of: "{\"accounts\":", with: "{\"future\":{\"x\":[1,2]},\"accounts\":")
            .replacingOccurrences(of: "\"id\":1,", with: "\"id\":1,\"colour\":\"blue\",")
            .replacingOccurrences(of: "\"status\":\"breached\"", with: "\"status\":\"breached\",\"severity\":9")
        XCTAssertNotEqual(json, Vector.json)
        let bytes = try authenticFile(plaintext: PayloadCodecTests.plaintext(json: json))
        let payload = try VaultFile.open(bytes, key: vectorKey).payload
        XCTAssertEqual(payload.withoutUnknownMembers, Vector.payload)
        XCTAssertEqual(payload.unknownMembers.members.map(\.name), ["future"])
        XCTAssertEqual(payload.accounts[0].unknownMembers.members.map(\.name), ["colour"])
        XCTAssertEqual(payload.accounts[0].result.unknownMembers.members.map(\.name), ["severity"])
    }

    func testAnAuthenticFileWithANewerSchemaIsUnsupported() throws {
        let bytes = try authenticFile(plaintext: PayloadCodecTests.plaintext(json: #"{"schema":2,"people":[]}"#))
        assertThrows(.unsupportedSchema(2)) { try VaultFile.open(bytes, key: self.vectorKey) }
    }

    // MARK: Rewrap

    func testRewrapKeepsTheKeyAndTheVaultIDUnderANewPassphrase() throws {
        let created = try VaultFile.create(passphrase: passphrase("old passphrase"), kdf: .interactive,
                                           payload: Vector.payload)
        let newKDF = KDFParameters(opslimit: 3, memlimit: 64 << 20)
        let rewrapped = try VaultFile.rewrap(created.header, key: created.key, newPassphrase: passphrase("new passphrase"),
                                             kdf: newKDF)
        XCTAssertEqual(rewrapped.vaultID, created.header.vaultID)
        XCTAssertEqual(rewrapped.kdf, newKDF)
        XCTAssertNotEqual(rewrapped.salt, created.header.salt)
        XCTAssertNotEqual(rewrapped.wrapNonce, created.header.wrapNonce)
        XCTAssertNotEqual(rewrapped.wrappedKey, created.header.wrappedKey)
        XCTAssertEqual(rewrapped.payloadNonce, created.header.payloadNonce)
        XCTAssertTrue(VaultFile.authenticates(rewrapped, key: created.key))

        let unwrapped = try VaultFile.unwrapKey(rewrapped, passphrase: passphrase("new passphrase"))
        XCTAssertTrue(unwrapped.isEqual(to: created.key))
        assertThrows(.wrongPassphrase) { try VaultFile.unwrapKey(rewrapped, passphrase: self.passphrase("old passphrase")) }

        // The new header fits the old payload box, and the usual path reseals it.
        let spliced = rewrapped.bytes + created.bytes.dropFirst(VaultHeader.size)
        XCTAssertEqual(try VaultFile.open(spliced, key: created.key).payload, Vector.payload)
        let sealed = try VaultFile.seal(Vector.payload, header: rewrapped, key: created.key)
        let reread = try VaultFile.readHeader(sealed)
        XCTAssertTrue(try VaultFile.unwrapKey(reread, passphrase: passphrase("new passphrase")).isEqual(to: created.key))
        XCTAssertEqual(try VaultFile.open(sealed, key: created.key).payload, Vector.payload)
    }

    func testSealAndRewrapRefuseAKeyThatDoesNotAuthenticateTheHeader() throws {
        let header = try VaultFile.readHeader(vectorFile)
        let other = SecretBytes.random(count: 32)
        assertThrows(.keyMismatch) { try VaultFile.seal(Vector.payload, header: header, key: other) }
        assertThrows(.keyMismatch) {
            try VaultFile.rewrap(header, key: other, newPassphrase: self.passphrase("x"), kdf: .interactive)
        }
    }

    func testWritersRefuseLimitsOutOfBounds() throws {
        let low = KDFParameters(opslimit: 1, memlimit: 8 << 20)
        assertThrows(.kdfParametersOutOfBounds(low)) {
            try VaultFile.create(passphrase: self.passphrase("x"), kdf: low, payload: VaultPayload())
        }
        let header = try VaultFile.readHeader(vectorFile)
        let high = KDFParameters(opslimit: 11, memlimit: 64 << 20)
        assertThrows(.kdfParametersOutOfBounds(high)) {
            try VaultFile.rewrap(header, key: self.vectorKey, newPassphrase: self.passphrase("x"), kdf: high)
        }
        XCTAssertEqual(VaultFormatError.kdfParametersOutOfBounds(high).exitStatus, .usage)
    }

    // MARK: Messages

    func testMessagesAreLowerCaseSingleLinesWithoutPathsOrSecrets() {
        let errors: [VaultFormatError] = [
            .notAVault, .truncated, .unsupportedVersion(2), .unsupported(feature: "header flags 0x1"),
            .tampered(reason: "reserved bytes are not zero"), .damaged(reason: "the payload does not decrypt"),
            .keyMismatch, .wrongPassphrase, .unsupportedSchema(2), .keyDerivationFailed(.moderate),
            .kdfParametersOutOfBounds(KDFParameters(opslimit: 1, memlimit: 1)), .unwritablePayload(reason: "x"),
        ]
        for error in errors {
            let text = error.message + (error.hint ?? "")
            XCTAssertEqual(error.message.first.map { String($0) }, error.message.first.map { String($0).lowercased() },
                           error.message)
            XCTAssertFalse(text.contains("\n"), error.message)
            XCTAssertFalse(text.contains("/"), "no paths: \(error.message)")
            XCTAssertFalse(error.message.hasSuffix("."), error.message)
            XCTAssertEqual(error.exitStatus, error == .wrongPassphrase ? .authentication
                           : error == .keyMismatch ? .keyring
                           : error == .kdfParametersOutOfBounds(KDFParameters(opslimit: 1, memlimit: 1)) ? .usage : .vault)
        }
    }

    // MARK: Helpers

    /// The vector file with other Argon2id limits written at offsets 16 and 24 (the MAC left as it was).
    private func withLimits(_ opslimit: UInt64, _ memlimit: UInt64, in file: [UInt8]) -> [UInt8] {
        var bytes = file
        for i in 0..<8 {
            bytes[16 + i] = UInt8(truncatingIfNeeded: opslimit >> (56 - 8 * i))
            bytes[24 + i] = UInt8(truncatingIfNeeded: memlimit >> (56 - 8 * i))
        }
        return bytes
    }

    /// A file under the vector's key and header holding `plaintext` exactly, built from the spec's
    /// primitives (subkeys 1 and 2 of "PWNVAULT", keyed BLAKE2b, secretbox), not through `seal`.
    private func authenticFile(plaintext: [UInt8]) throws -> [UInt8] {
        let key = vectorKey
        var head = Array(vectorFile.prefix(160))
        let boxLength = UInt64(plaintext.count + 16)
        for i in 0..<8 { head.append(UInt8(truncatingIfNeeded: boxLength >> (56 - 8 * i))) }
        let macKey = Sodium.deriveSubkey(from: key, id: 1, context: "PWNVAULT")
        head += head.withUnsafeBytes { Sodium.blake2b($0, key: macKey) }
        let payloadKey = Sodium.deriveSubkey(from: key, id: 2, context: "PWNVAULT")
        return head + plaintext.withUnsafeBytes { Sodium.seal($0, nonce: Vector.payloadNonce, key: payloadKey) }
    }
}

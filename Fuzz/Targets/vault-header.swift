@testable import PwnVaultCore
import Foundation

// The vault header (Docs/VAULT_FORMAT.md §4, §9): `VaultFile.readHeader` on any bytes, then `open`
// with a fixed vault key. The seed corpus holds a valid vault made with that key (`make-seed`).
//
// Invariants:
// - a header that reads writes back as the same 200 bytes (every field is checked, none is ignored);
// - the file it accepts has exactly the length the header declares;
// - a file that opens under the fixed key re-seals to a file that opens to the same payload.

private let fixedKey = SecretBytes(copying: (0..<32).map { UInt8($0) &* 7 &+ 1 })

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    // `PWNVAULT_FUZZ_MAKE_SEED=PATH`: write a valid vault under the fixed key and stop.
    if let path = ProcessInfo.processInfo.environment["PWNVAULT_FUZZ_MAKE_SEED"] {
        let account = try! AccountParser.parse("alice@example.com", phones: .internationalOnly)
        var payload = VaultPayload(nextID: 3, accounts: [
            Account(id: 1, parsed: account, label: nil, addedAt: Date(timeIntervalSince1970: 1_700_000_000)),
            Account(id: 2, parsed: try! AccountParser.parse("+44 20 7946 0018", phones: .internationalOnly), label: nil, addedAt: Date(timeIntervalSince1970: 1_700_000_500)),
        ])
        payload.accounts[1].label = "Mum's phone"
        let vault = try! VaultFile.create(passphrase: SecretBytes(copying: Array("fuzz".utf8)), kdf: .interactive,
                                          payload: payload, key: fixedKey, salt: Array(repeating: 1, count: 16),
                                          vaultID: Array(repeating: 2, count: 16), wrapNonce: Array(repeating: 3, count: 24),
                                          payloadNonce: Array(repeating: 4, count: 24))
        _ = FileManager.default.createFile(atPath: path, contents: Data(vault.bytes))
        exit(0)
    }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let file = input.rest()
    guard let header = try? VaultFile.readHeader(file) else { return 0 }
    invariant(header.bytes == Array(file.prefix(VaultHeader.size)), "the header does not write back as it was read")
    invariant(header.fileLength == file.count, "a file of the wrong length was accepted")
    invariant(header.description.utf8.count < 200, "the header's description is not short")

    guard let opened = try? VaultFile.open(file, key: fixedKey) else { return 0 }
    guard let resealed = try? VaultFile.seal(opened.payload, header: opened.header, key: fixedKey,
                                             payloadNonce: opened.header.payloadNonce) else {
        invariant(false, "a payload that opened cannot be sealed again")
        return 0
    }
    let again = try? VaultFile.open(resealed, key: fixedKey)
    invariant(again?.payload == opened.payload, "the payload changed over a seal and open")
    return 0
}

import PwnVaultCore

/// A passphrase or a new account typed into the interface: never drawn (not even as bullets: the length is not
/// told), held in `SecretBytes` (wiped when done), at most `capacity` bytes.
final class SecretField {
    static let capacity = 1024
    private let buffer = SecretBytes(count: SecretField.capacity)
    private(set) var count = 0

    func append(_ c: Character) {
        for byte in String(c).utf8 where count < SecretField.capacity {
            buffer.withUnsafeMutableBytes { $0[count] = byte }
            count += 1
        }
    }

    /// Removes the last character (all its UTF-8 bytes).
    func removeLast() {
        buffer.withUnsafeMutableBytes { bytes in
            while count > 0 {
                count -= 1
                let byte = bytes[count]
                bytes[count] = 0
                if byte & 0xC0 != 0x80 { break }
            }
        }
    }

    /// The typed passphrase, and the field emptied.
    func take() -> SecretBytes {
        let secret = buffer.withUnsafeBytes { SecretBytes(copying: $0.prefix(count)) }
        buffer.withUnsafeMutableBytes { for i in 0..<$0.count { $0[i] = 0 } }
        count = 0
        return secret
    }
}

import FoundationEssentials

/// Turns a `VaultPayload` into the padded plaintext that is sealed in the payload box, and back
/// (Docs/VAULT_FORMAT.md §5 and §7):
/// `plaintext = n (8 bytes, big-endian) ‖ JSON (n bytes) ‖ zeros`, padded to a multiple of 4096.
///
/// The plaintext lives in `SecretBytes`, and so does the JSON: `PayloadJSONWriter` writes it straight
/// into the plaintext and `PayloadJSONReader` reads it from there, without Foundation's JSON.
enum PayloadCodec {
    /// Plaintext sizes are multiples of this, so the file size reveals only a rough account count.
    static let blockSize = 4096
    /// The big-endian JSON length in front of the JSON.
    static let lengthFieldSize = 8
    /// The largest plaintext a vault may hold: what fits in the largest file `VaultStore` reads back
    /// (64 MiB less the header and the MAC, rounded down to whole blocks), so a save never writes a
    /// vault that cannot be opened again.
    static let maximumPlaintextSize = (VaultStore.maximumSize - VaultHeader.size - Sodium.macBytes) / blockSize * blockSize
    /// The payload schema this build reads and writes.
    static let supportedSchema = 1

    /// Whether a padded plaintext of `size` bytes is allowed: a positive multiple of the block size, at most `maximumPlaintextSize`.
    static func isValidPlaintextSize(_ size: UInt64) -> Bool {
        size > 0 && size % UInt64(blockSize) == 0 && size <= UInt64(maximumPlaintextSize)
    }

    /// The smallest multiple of the block size that holds the length field and `jsonLength` bytes.
    static func paddedSize(jsonLength: Int) -> Int {
        (lengthFieldSize + jsonLength + blockSize - 1) / blockSize * blockSize
    }

    // MARK: Encoding

    /// The padded plaintext of `payload`. Throws `.unwritablePayload` when the payload breaks a rule of
    /// schema 1 (a writer must never produce a vault its reader rejects).
    ///
    /// The JSON is measured first and then written straight into the guarded plaintext, so it never
    /// exists in ordinary memory.
    static func encode(_ payload: VaultPayload) throws -> SecretBytes {
        guard payload.schema == supportedSchema else {
            throw VaultFormatError.unwritablePayload(reason: "the payload schema is not \(supportedSchema)")
        }
        if let problem = inconsistency(in: payload) { throw VaultFormatError.unwritablePayload(reason: problem) }

        let length = try PayloadJSONWriter.length(of: payload)
        guard length <= maximumPlaintextSize - lengthFieldSize else {
            throw VaultFormatError.unwritablePayload(reason: phrase("the accounts take more than the 64 MiB a vault file may hold"))
        }
        let plaintext = SecretBytes(count: paddedSize(jsonLength: length))   // zeroed: the padding
        try plaintext.withUnsafeMutableBytes { out in
            withUnsafeBytes(of: UInt64(length).bigEndian) { out.copyMemory(from: $0) }
            try PayloadJSONWriter.write(payload, into: UnsafeMutableRawBufferPointer(
                rebasing: out[lengthFieldSize..<(lengthFieldSize + length)]))
        }
        return plaintext
    }

    // MARK: Decoding

    /// The payload in a padded plaintext. Throws `.damaged` for anything §5 or §7 forbids, and
    /// `.unsupportedSchema` for a newer schema.
    static func decode(_ plaintext: UnsafeRawBufferPointer) throws -> VaultPayload {
        guard isValidPlaintextSize(UInt64(plaintext.count)) else {
            throw VaultFormatError.damaged(reason: phrase("the payload has an impossible size"))
        }
        var declared: UInt64 = 0
        for byte in plaintext[..<lengthFieldSize] { declared = declared << 8 | UInt64(byte) }
        guard declared <= UInt64(plaintext.count - lengthFieldSize) else {
            throw VaultFormatError.damaged(reason: phrase("the payload length exceeds the payload"))
        }
        let length = Int(declared)
        guard paddedSize(jsonLength: length) == plaintext.count else {
            throw VaultFormatError.damaged(reason: phrase("the payload padding is longer than needed"))
        }
        guard Sodium.isZero(UnsafeRawBufferPointer(rebasing: plaintext[(lengthFieldSize + length)...])) else {
            throw VaultFormatError.damaged(reason: phrase("the payload padding is not zero"))
        }

        // Read straight from the secret memory: no copy of the JSON is made.
        let json = UnsafeRawBufferPointer(rebasing: plaintext[lengthFieldSize..<(lengthFieldSize + length)])
        let payload: VaultPayload
        do throws(PayloadJSONError) {
            payload = try PayloadJSONReader.read(json)
        } catch {
            // The reader stops at the first problem in document order. A text that is not JSON at all
            // says so (rather than naming a member the problem happened to follow), and a newer schema
            // may be shaped differently: say "unsupported", not "damaged", when the text says so.
            let schema: Int?
            do throws(PayloadJSONError) {
                schema = try PayloadJSONReader.schema(of: json)
            } catch {
                throw VaultFormatError.damaged(reason: error.reason)
            }
            if let schema, schema > supportedSchema { throw VaultFormatError.unsupportedSchema(schema) }
            throw VaultFormatError.damaged(reason: error.reason)
        }
        guard payload.schema == supportedSchema else {
            if payload.schema > supportedSchema { throw VaultFormatError.unsupportedSchema(payload.schema) }
            throw VaultFormatError.damaged(reason: phrase("the payload schema is below 1"))
        }
        if let problem = inconsistency(in: payload) { throw VaultFormatError.damaged(reason: problem) }
        return payload
    }

    // MARK: Rules of schema 1 beyond types

    /// The first rule of §7 that `payload` breaks, or nil. Like every reason (§7.2), it names members
    /// and positions, never a value.
    static func inconsistency(in payload: VaultPayload) -> String? {
        guard payload.nextID >= 1 else { return "nextID is below 1" }
        var seen = [Int: Int](minimumCapacity: payload.accounts.count)   // id → first index
        for index in payload.accounts.indices {
            let id = payload.accounts[index].id   // not the whole account: copying it costs a retain per string
            guard id >= 1, id < payload.nextID else {
                return "accounts[\(index)].id is outside 1 ..< nextID"
            }
            if let first = seen.updateValue(index, forKey: id) {
                return "accounts[\(index)].id is also the id of accounts[\(first)]"
            }
            if let pastes = payload.accounts[index].result.pasteCount, pastes < 0 {
                return "accounts[\(index)].result.pasteCount is negative"
            }
        }
        return nil
    }

    // MARK: Timestamps: `YYYY-MM-DDTHH:MM:SS.sssZ`, UTC, years 0001–9999 (§7)

    /// The timestamp of `date`, rounded to the nearest millisecond; nil outside the years 0001–9999.
    static func timestamp(from date: Date) -> String? {
        guard let milliseconds = PayloadTimestamp.milliseconds(of: date) else { return nil }
        return String(unsafeUninitializedCapacity: PayloadTimestamp.length) { buffer in
            PayloadTimestamp.write(milliseconds: milliseconds, into: UnsafeMutableRawBufferPointer(buffer))
            return PayloadTimestamp.length
        }
    }

    /// The date of a timestamp in exactly the form of §7, or nil for any other text.
    static func date(fromTimestamp text: String) -> Date? {
        var text = text
        return text.withUTF8 { PayloadTimestamp.date(from: UnsafeRawBufferPointer($0)) }
    }
}

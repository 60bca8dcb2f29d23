import Foundation

/// Turns a `VaultPayload` into the padded plaintext that is sealed in the payload box, and back
/// (Docs/VAULT_FORMAT.md §5 and §7):
/// `plaintext = n (8 bytes, big-endian) ‖ JSON (n bytes) ‖ zeros`, padded to a multiple of 4096.
///
/// The plaintext lives in `SecretBytes`; the JSON produced by the encoder is wiped once copied.
enum PayloadCodec {
    /// Plaintext sizes are multiples of this, so the file size reveals only a rough account count.
    static let blockSize = 4096
    /// The big-endian JSON length in front of the JSON.
    static let lengthFieldSize = 8
    /// The largest plaintext a vault may hold (1 GiB).
    static let maximumPlaintextSize = 1 << 30
    /// The payload schema this build reads and writes.
    static let supportedSchema = 1

    /// Whether a padded plaintext of `size` bytes is allowed: a positive multiple of the block size, at most 1 GiB.
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
    static func encode(_ payload: VaultPayload) throws -> SecretBytes {
        guard payload.schema == supportedSchema else {
            throw VaultFormatError.unwritablePayload(reason: "schema \(payload.schema) is not \(supportedSchema)")
        }
        if let problem = inconsistency(in: payload) { throw VaultFormatError.unwritablePayload(reason: problem) }

        var json: Data
        do {
            json = try makeEncoder().encode(payload)
        } catch let EncodingError.invalidValue(value, _) where value is Date {
            throw VaultFormatError.unwritablePayload(reason: "a date is outside the years 0001 to 9999")
        } catch {
            throw VaultFormatError.unwritablePayload(reason: "the accounts cannot be encoded as json")
        }
        defer { Sodium.wipe(&json) }
        guard json.count <= maximumPlaintextSize - lengthFieldSize else {
            throw VaultFormatError.unwritablePayload(reason: "the accounts take more than 1 GiB")
        }

        let plaintext = SecretBytes(count: paddedSize(jsonLength: json.count))   // zeroed: the padding
        plaintext.withUnsafeMutableBytes { out in
            withUnsafeBytes(of: UInt64(json.count).bigEndian) { out.copyMemory(from: $0) }
            json.withUnsafeBytes { source in
                UnsafeMutableRawBufferPointer(rebasing: out[lengthFieldSize...]).copyMemory(from: source)
            }
        }
        return plaintext
    }

    static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            guard let text = timestamp(from: date) else {
                throw EncodingError.invalidValue(date, .init(codingPath: encoder.codingPath,
                                                             debugDescription: "outside the years 0001 to 9999"))
            }
            var container = encoder.singleValueContainer()
            try container.encode(text)
        }
        return encoder
    }

    // MARK: Decoding

    /// The payload in a padded plaintext. Throws `.damaged` for anything §5 or §7 forbids, and
    /// `.unsupportedSchema` for a newer schema.
    static func decode(_ plaintext: UnsafeRawBufferPointer) throws -> VaultPayload {
        guard isValidPlaintextSize(UInt64(plaintext.count)), let base = plaintext.baseAddress else {
            throw VaultFormatError.damaged(reason: "the payload has an impossible size")
        }
        var declared: UInt64 = 0
        for byte in plaintext[..<lengthFieldSize] { declared = declared << 8 | UInt64(byte) }
        guard declared <= UInt64(plaintext.count - lengthFieldSize) else {
            throw VaultFormatError.damaged(reason: "the payload length exceeds the payload")
        }
        let length = Int(declared)
        guard paddedSize(jsonLength: length) == plaintext.count else {
            throw VaultFormatError.damaged(reason: "the payload padding is longer than needed")
        }
        guard Sodium.isZero(UnsafeRawBufferPointer(rebasing: plaintext[(lengthFieldSize + length)...])) else {
            throw VaultFormatError.damaged(reason: "the payload padding is not zero")
        }

        // Decode straight from the secret memory: no copy of the JSON is made here.
        let json = Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base + lengthFieldSize), count: length,
                        deallocator: .none)
        let decoder = makeDecoder()
        let payload: VaultPayload
        do {
            payload = try decoder.decode(VaultPayload.self, from: json)
        } catch {
            // A newer schema may be shaped differently: say "unsupported", not "damaged", when it says so.
            if let probe = try? decoder.decode(SchemaProbe.self, from: json), probe.schema > supportedSchema {
                throw VaultFormatError.unsupportedSchema(probe.schema)
            }
            throw VaultFormatError.damaged(reason: reason(for: error))
        }
        guard payload.schema == supportedSchema else {
            if payload.schema > supportedSchema { throw VaultFormatError.unsupportedSchema(payload.schema) }
            throw VaultFormatError.damaged(reason: "the payload schema \(payload.schema) is invalid")
        }
        if let problem = inconsistency(in: payload) { throw VaultFormatError.damaged(reason: problem) }
        return payload
    }

    static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            guard let date = date(fromTimestamp: try container.decode(String.self)) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a pwnvault timestamp")
            }
            return date
        }
        return decoder
    }

    private struct SchemaProbe: Decodable { let schema: Int }

    /// A reason that names the field but never its value: the value may be an account.
    private static func reason(for error: Error) -> String {
        guard let error = error as? DecodingError else { return "the payload is not valid json" }
        func path(_ keys: [CodingKey]) -> String {
            keys.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
                .drop { $0 == "." }.description
        }
        switch error {
        case let .keyNotFound(key, context):
            return "the payload lacks \(path(context.codingPath + [key]))"
        case let .typeMismatch(_, context), let .valueNotFound(_, context):
            return "the payload has a value of the wrong type at \(path(context.codingPath))"
        case let .dataCorrupted(context):
            return context.codingPath.isEmpty ? "the payload is not valid json"
                : "the payload has an invalid value at \(path(context.codingPath))"
        @unknown default:
            return "the payload is not valid schema-1 json"
        }
    }

    // MARK: Rules of schema 1 beyond types

    /// The first rule of §7 that `payload` breaks, or nil. Ids are not secret; nothing else is named.
    static func inconsistency(in payload: VaultPayload) -> String? {
        guard payload.nextID >= 1 else { return "nextID is below 1" }
        var seen = Set<Int>(minimumCapacity: payload.accounts.count)
        for (index, account) in payload.accounts.enumerated() {
            guard account.id >= 1, account.id < payload.nextID else {
                return "accounts[\(index)] has id \(account.id), outside 1..<\(payload.nextID)"
            }
            guard seen.insert(account.id).inserted else { return "account id \(account.id) is used twice" }
            if let pastes = account.result.pasteCount, pastes < 0 {
                return "accounts[\(index)].result.pasteCount is negative"
            }
        }
        return nil
    }

    // MARK: Timestamps: `YYYY-MM-DDTHH:MM:SS.sssZ`, UTC, years 0001–9999 (§7)

    private static let millisecondsPerDay: Int64 = 86_400_000
    private static let earliestMilliseconds = daysFromCivil(year: 1, month: 1, day: 1) * millisecondsPerDay
    private static let latestMilliseconds = (daysFromCivil(year: 9999, month: 12, day: 31) + 1) * millisecondsPerDay - 1

    /// The timestamp of `date`, rounded to the nearest millisecond; nil outside the years 0001–9999.
    static func timestamp(from date: Date) -> String? {
        let scaled = (date.timeIntervalSince1970 * 1000).rounded()
        guard scaled.isFinite, scaled >= Double(earliestMilliseconds), scaled <= Double(latestMilliseconds) else {
            return nil
        }
        let milliseconds = Int64(scaled)
        let days = floorDivide(milliseconds, millisecondsPerDay)
        let ofDay = milliseconds - days * millisecondsPerDay
        let (year, month, day) = civil(fromDays: days)
        var text = [UInt8](repeating: 0, count: 24)
        func put(_ value: Int64, at offset: Int, digits: Int) {
            var value = value
            for i in stride(from: offset + digits - 1, through: offset, by: -1) {
                text[i] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            }
        }
        put(year, at: 0, digits: 4); text[4] = UInt8(ascii: "-")
        put(month, at: 5, digits: 2); text[7] = UInt8(ascii: "-")
        put(day, at: 8, digits: 2); text[10] = UInt8(ascii: "T")
        put(ofDay / 3_600_000, at: 11, digits: 2); text[13] = UInt8(ascii: ":")
        put(ofDay / 60_000 % 60, at: 14, digits: 2); text[16] = UInt8(ascii: ":")
        put(ofDay / 1000 % 60, at: 17, digits: 2); text[19] = UInt8(ascii: ".")
        put(ofDay % 1000, at: 20, digits: 3); text[23] = UInt8(ascii: "Z")
        return String(decoding: text, as: UTF8.self)
    }

    /// The date of a timestamp in exactly the form of §7, or nil for any other text.
    static func date(fromTimestamp text: String) -> Date? {
        var text = text
        return text.withUTF8 { u -> Date? in
            guard u.count == 24, u[4] == UInt8(ascii: "-"), u[7] == UInt8(ascii: "-"), u[10] == UInt8(ascii: "T"),
                  u[13] == UInt8(ascii: ":"), u[16] == UInt8(ascii: ":"), u[19] == UInt8(ascii: "."),
                  u[23] == UInt8(ascii: "Z") else { return nil }
            func number(_ range: Range<Int>) -> Int64? {
                var value: Int64 = 0
                for i in range {
                    guard u[i] >= UInt8(ascii: "0"), u[i] <= UInt8(ascii: "9") else { return nil }
                    value = value * 10 + Int64(u[i] - UInt8(ascii: "0"))
                }
                return value
            }
            guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
                  let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
                  let millisecond = number(20..<23),
                  year >= 1, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
                  hour < 24, minute < 60, second < 60 else { return nil }
            let days = daysFromCivil(year: year, month: month, day: day)
            let milliseconds = (((days * 24 + hour) * 60 + minute) * 60 + second) * 1000 + millisecond
            return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        }
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant, "chrono-compatible low-level date algorithms").
    private static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = floorDivide(y, 400)
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01 (the inverse of `daysFromCivil`).
    private static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

/// Why `PayloadJSONReader` refused a payload JSON text. `PayloadCodec` turns it into
/// `VaultFormatError.damaged(reason:)`; the reason names offsets and paths, never a value.
enum PayloadJSONError: Error, Equatable {
    /// The text is not JSON (RFC 8259), or not valid UTF-8, or escapes an unpaired surrogate.
    case notJSON(offset: Int)
    /// Arrays and objects are nested deeper than `PayloadJSONReader.maximumDepth`.
    case nestedTooDeeply(offset: Int)
    /// A member of the schema has a value of another JSON type (or `null` where it is required).
    case wrongType(PayloadJSONPath)
    /// A value of the right type that the schema does not allow: an unknown `kind` or `status`, a
    /// malformed timestamp, an integer outside the signed 64-bit range.
    case invalidValue(PayloadJSONPath)
    /// A required member is missing.
    case missing(PayloadJSONPath)
    /// A member of the schema appears twice in the same object.
    case duplicate(PayloadJSONPath)

    /// The reason, in the words of `VaultFormatError.damaged`.
    var reason: String {
        switch self {
        case let .notJSON(offset):
            return "the payload is not valid json (at byte \(offset))"
        case let .nestedTooDeeply(offset):
            return "the payload nests arrays and objects deeper than \(PayloadJSONReader.maximumDepth) levels (at byte \(offset))"
        case let .wrongType(path):
            return "the payload has a value of the wrong type at \(path)"
        case let .invalidValue(path):
            return "the payload has an invalid value at \(path)"
        case let .missing(path):
            return "the payload lacks \(path)"
        case let .duplicate(path):
            return "the payload has \(path) twice"
        }
    }
}

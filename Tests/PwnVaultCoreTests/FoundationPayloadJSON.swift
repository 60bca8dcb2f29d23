import Foundation
@testable import PwnVaultCore

/// Foundation's JSON configured as `PayloadCodec` used it before it had its own writer and reader:
/// the independent reference that the codec's bytes and values are compared with.
/// The payload goes through `ReferencePayload`: the library's payload types are not `Codable`.
enum FoundationPayloadJSON {
    /// The encoder the spec names (§7.1): sorted keys, `/` unescaped, millisecond timestamps.
    static func encoder(_ formatting: JSONEncoder.OutputFormatting = [.sortedKeys, .withoutEscapingSlashes]) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = formatting
        encoder.dateEncodingStrategy = .custom { date, encoder in
            guard let text = PayloadCodec.timestamp(from: date) else {
                throw EncodingError.invalidValue(date, .init(codingPath: encoder.codingPath, debugDescription: "no timestamp"))
            }
            var container = encoder.singleValueContainer()
            try container.encode(text)
        }
        return encoder
    }

    /// A decoder that reads timestamps in the form of §7 only.
    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            guard let date = PayloadCodec.date(fromTimestamp: try container.decode(String.self)) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a pwnvault timestamp")
            }
            return date
        }
        return decoder
    }
}

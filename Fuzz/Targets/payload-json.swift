@testable import PwnVaultCore
import Foundation

// The payload JSON reader (Docs/VAULT_FORMAT.md §7) and, as a round trip, the writer.
//
// Invariants:
// - what the reader accepts, the writer writes, and the reader reads back identical;
// - writing is canonical: writing the read-back payload gives the same bytes again;
// - the padded plaintext made from accepted JSON decodes to the same payload when it is consistent
//   (`PayloadCodec.inconsistency` nil), and encodes back to a plaintext that decodes identically.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let json = UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size)
    _ = try? PayloadJSONReader.schema(of: json)
    guard let payload = try? PayloadJSONReader.read(json) else {
        // Whatever the reader refuses, the codec refuses too (with a reason, not a crash).
        _ = try? decodePlaintext(json)
        return 0
    }
    guard let written = write(payload) else { return 0 }
    let reread = written.withUnsafeBytes { try? PayloadJSONReader.read($0) }
    invariant(reread != nil, "the reader refuses what the writer wrote")
    invariant(reread == payload, "the payload changed over a write and read")
    invariant(reread.flatMap(write) == written, "writing is not canonical")

    let decoded = try? decodePlaintext(json)
    let consistent = PayloadCodec.inconsistency(in: payload) == nil && payload.schema == PayloadCodec.supportedSchema
    invariant((decoded != nil) == consistent, "the codec and the reader disagree on a payload")
    if let decoded {
        invariant(decoded == payload, "the codec read another payload than the reader")
        let plaintext = try? PayloadCodec.encode(decoded)
        invariant(plaintext != nil, "a payload that decoded does not encode")
        let back = plaintext.flatMap { p in p.withUnsafeBytes { try? PayloadCodec.decode($0) } }
        invariant(back == decoded, "the payload changed over an encode and decode")
    }
    return 0
}

/// The writer's bytes for `payload`, or nil when the writer refuses it (e.g. a date outside the years 1–9999).
private func write(_ payload: VaultPayload) -> [UInt8]? {
    guard let length = try? PayloadJSONWriter.length(of: payload) else { return nil }
    var out = [UInt8](repeating: 0, count: length)
    let ok = out.withUnsafeMutableBytes { buffer in (try? PayloadJSONWriter.write(payload, into: buffer)) != nil }
    invariant(ok, "the writer measured a payload it then refused to write")
    return out
}

/// `json` in a padded plaintext (length field, JSON, zeros), decoded by `PayloadCodec`.
private func decodePlaintext(_ json: UnsafeRawBufferPointer) throws -> VaultPayload {
    let size = PayloadCodec.paddedSize(jsonLength: json.count)
    var plaintext = [UInt8](repeating: 0, count: size)
    withUnsafeBytes(of: UInt64(json.count).bigEndian) { plaintext.replaceSubrange(0..<8, with: $0) }
    plaintext.replaceSubrange(8..<(8 + json.count), with: json)
    return try plaintext.withUnsafeBytes { try PayloadCodec.decode($0) }
}

@testable import PwnVaultCore
import Foundation

// The Pwned Passwords range answer (`PasswordRange.timesSeen(suffix:in:)`), compared with a plain
// reading of the format written here from docs/hibp-api.md: `SUFFIX:COUNT` lines of 35 hex
// characters (either case), a colon and 1-18 digits; CRLF or LF; empty lines skipped; any other line
// makes the whole answer unreadable; the first line of the suffix with a count above 0 counts.
//
// The first 35 bytes of the input choose the suffix looked for (made into upper-case hex).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let hex = Array("0123456789ABCDEF".utf8)
    let suffix = input.take(PasswordRange.suffixLength).map { hex[Int($0 & 0x0F)] }
    guard suffix.count == PasswordRange.suffixLength else { return 0 }
    var body = input.rest()
    // Often, make the answer hold the suffix, so matches are exercised and not only refusals.
    if body.first.map({ $0 & 0x80 != 0 }) == true, body.count > 1 {
        body = Array(body[1...]) + [0x0A] + suffix + Array(":\(body[0] & 0x7F)".utf8)
    }

    let actual: Int? = suffix.withUnsafeBytes { s in
        body.withUnsafeBytes { b in try? PasswordRange.timesSeen(suffix: s, in: b) }
    }
    invariant(actual == expected(suffix: suffix, body: body),
              "PasswordRange says \(actual.map(String.init) ?? "unreadable"), the format says \(expected(suffix: suffix, body: body).map(String.init) ?? "unreadable")")
    return 0
}

private func expected(suffix: [UInt8], body: [UInt8]) -> Int? {
    var found = 0
    for var line in body.split(separator: 0x0A, omittingEmptySubsequences: false) {
        if line.last == 0x0D { line = line.dropLast() }
        if line.isEmpty { continue }
        let parts = line.split(separator: UInt8(ascii: ":"), maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 35, (1...18).contains(parts[1].count),
              parts[0].allSatisfy({ isHex($0) }), parts[1].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        let count = Int(String(decoding: parts[1], as: UTF8.self))!
        if parts[0].map(upper) == suffix, count > 0, found == 0 { found = count }
    }
    return found
}

private func isHex(_ b: UInt8) -> Bool { (0x30...0x39).contains(b) || (0x41...0x46).contains(b) || (0x61...0x66).contains(b) }
private func upper(_ b: UInt8) -> UInt8 { (0x61...0x66).contains(b) ? b - 0x20 : b }

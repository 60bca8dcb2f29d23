import FoundationEssentials

/// Reads a Pwned Passwords range answer (`GET /range/{prefix}`) and finds one hash's count in it.
///
/// The body is `SUFFIX:COUNT` lines: 35 hex characters (the hash without the 5 sent), a colon and a
/// decimal count, separated by CRLF (LF alone is accepted, and so is lower-case hex). With
/// `Add-Padding: true` the server adds lines with a count of 0 for suffixes nobody used: those are
/// ignored. Empty lines are skipped. Any other line makes the whole answer unreadable
/// (`HIBPError.malformedBody`): an answer that is not in the format cannot be trusted to say
/// "not found".
///
/// Every line's suffix is compared with the password's without stopping at the first difference, so
/// the time taken does not depend on how much of the secret hash a line shares.
public enum PasswordRange {
    /// Hex characters of a suffix line.
    public static let suffixLength = PasswordHash.hexLength - PasswordHash.prefixLength
    /// The most digits a count may have (keeps it inside `Int`).
    static let maxCountDigits = 18

    /// How many times the password of `hash` was seen according to `body`: 0 when its suffix is absent
    /// or present only as padding.
    public static func timesSeen(_ hash: PasswordHash, in body: Data) throws -> Int {
        try hash.withHex { hex in
            try body.withUnsafeBytes { bytes in try timesSeen(suffix: UnsafeRawBufferPointer(rebasing: hex[PasswordHash.prefixLength...]), in: bytes) }
        }
    }

    static func timesSeen(suffix: UnsafeRawBufferPointer, in body: UnsafeRawBufferPointer) throws -> Int {
        var found = 0
        var start = 0
        let n = body.count
        while start < n {
            var end = start
            while end < n && body[end] != 0x0A { end += 1 }
            var lineEnd = end
            if lineEnd > start && body[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            if lineEnd > start {
                let count = try parseLine(body, from: start, to: lineEnd, suffix: suffix)
                if let count, count > 0, found == 0 { found = count }
            }
            start = end + 1
        }
        return found
    }

    /// The count on the line when its suffix is `suffix`, nil when it is another suffix; throws when
    /// the line is not `35 hex:digits`.
    private static func parseLine(_ body: UnsafeRawBufferPointer, from start: Int, to end: Int,
                                  suffix: UnsafeRawBufferPointer) throws -> Int? {
        let length = end - start
        guard length >= suffixLength + 2, length <= suffixLength + 1 + maxCountDigits,
              body[start + suffixLength] == UInt8(ascii: ":") else { throw HIBPError.malformedBody }
        var difference: UInt8 = 0
        for i in 0..<suffixLength {
            guard let upper = HexText.upperHexDigit(body[start + i]) else { throw HIBPError.malformedBody }
            difference |= upper ^ suffix[i]
        }
        var count = 0
        for i in (start + suffixLength + 1)..<end {
            let b = body[i]
            guard b >= 0x30 && b <= 0x39 else { throw HIBPError.malformedBody }
            count = count * 10 + Int(b - 0x30)
        }
        return difference == 0 ? count : nil
    }
}

@testable import PwnVaultCore
import Foundation

// The account parser (`AccountParser.parse`) and the masking of what it accepts (`Masking.mask`).
//
// Invariants:
// - the parser returns an account or throws an `AccountParseError`;
// - parsing is idempotent: the normalised form parses to itself, of the same kind, with the same key;
// - a mask never shows more than its fixed characters, each of them printable and taken from the
//   account: username `[c]•••[c]`, phone `•••` or `•••dd` (its last two digits), e-mail
//   `[c]•••[c]@[c]•••.suffix` where the suffix is the account's own public suffix (one or two labels);
// - the bullet run is always exactly three bullets.

private let bullets = Masking.bullets

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let text = String(decoding: input.rest(), as: UTF8.self)
    let parsed: ParsedAccount
    do {
        parsed = try AccountParser.parse(text, phones: .internationalOnly)
    } catch is AccountParseError {
        return 0
    } catch is PhoneLibraryError {
        return 0   // scripts/fuzz.sh does not build libPwnVaultPhone.so: phone numbers are not fuzzed here
    } catch {
        invariant(false, "the parser threw \(type(of: error))")
        return 0
    }
    let again = try? AccountParser.parse(parsed.normalized, phones: .internationalOnly)
    invariant(again?.normalized == parsed.normalized && again?.kind == parsed.kind && again?.dedupKey == parsed.dedupKey,
              "the normalised form does not parse to itself")

    let normalized = parsed.normalized
    let mask = Masking.mask(normalized, kind: parsed.kind)
    for kind in AccountKind.allCases { _ = Masking.mask(normalized, kind: kind) }   // any kind: no crash
    invariant(mask.components(separatedBy: bullets).count == (parsed.kind == .email ? 3 : 2),
              "a mask without its bullet runs")
    // Counted in scalars: a bullet inside a longer Character (with a joiner or a combining mark) draws as one.
    invariant(mask.unicodeScalars.split(whereSeparator: { $0 != "•" }).allSatisfy { $0.count == 3 }, "a bullet run that is not three long")

    switch parsed.kind {
    case .username:
        checkEnds(mask, of: Substring(normalized))
    case .phone:
        let digits = normalized.unicodeScalars.filter { ("0"..."9").contains($0) }
        let shown = mask.dropFirst(bullets.count)
        invariant(mask.hasPrefix(bullets) && (shown.isEmpty || (shown.count == 2 && String(String.UnicodeScalarView(digits.suffix(2))) == shown)),
                  "a phone mask shows more than its last two digits")
    case .email:
        let at = normalized.lastIndex(of: "@")!
        let local = normalized[..<at], domain = normalized[normalized.index(after: at)...]
        let maskAt = mask.firstIndex(of: "@")
        invariant(maskAt != nil && mask.filter { $0 == "@" }.count == 1, "an e-mail mask without its '@'")
        guard let maskAt else { return 0 }
        let base = local.firstIndex(of: "+").map { local[..<$0] } ?? local
        checkEnds(String(mask[..<maskAt]), of: base)
        let maskedDomain = mask[mask.index(after: maskAt)...]
        let parts = maskedDomain.components(separatedBy: bullets)
        invariant(parts[0].count <= 1 && (parts[0].isEmpty || domain.hasPrefix(parts[0]) || domain.contains("." + parts[0])),
                  "an e-mail mask shows more than one character of the domain name")
        let suffix = parts[1]
        if !suffix.isEmpty {
            invariant(suffix.hasPrefix("."), "the public suffix does not follow the bullets")
            let labels = suffix.dropFirst().split(separator: ".", omittingEmptySubsequences: false)
            invariant(labels.count <= 2 && domain.hasSuffix(suffix), "an e-mail mask shows more than the public suffix")
        }
    }
    for scalar in mask.unicodeScalars { invariant(!Sanitizer.isStripped(scalar) && scalar != " ", "a mask holds an unprintable character") }
    return 0
}

/// `[first]•••[last]`: at most the first and the last character of `hidden`.
private func checkEnds(_ mask: String, of hidden: Substring) {
    let parts = mask.components(separatedBy: bullets)
    invariant(parts.count == 2 && parts[0].count <= 1 && parts[1].count <= 1, "a mask shows more than two characters")
    guard parts.count == 2 else { return }
    invariant(parts[0].isEmpty || hidden.first.map(String.init) == parts[0], "a mask shows a character that is not the first")
    invariant(parts[1].isEmpty || hidden.last.map(String.init) == parts[1], "a mask shows a character that is not the last")
    invariant(parts[1].isEmpty || hidden.count >= 4, "a short account shows its last character")
}

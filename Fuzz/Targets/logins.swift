@testable import PwnVaultCore
import Foundation

// The password-manager export readers: the RFC 4180 reader (`CSVReader`), the detector
// (`LoginExportDetector`) and each family's reader behind `LoginExportReader`.
//
// Invariants:
// - the CSV reader hands out records in file order, each within the file's lines, with no more field
//   bytes than the file has; a record it cannot read is reported with lines within the file;
// - detection and reading either succeed or throw a `LoginReadError` with a one-line message;
// - a detected format is the format the reading says; a `--format` reading is of the format asked for;
// - every login and skip is within the file (lines) or within the items (entries), in file order;
// - every address and user name kept is clean single-line text of bounded length, and a site, when
//   there is one, is a lower-case name with a dot and no empty label;
// - a decrypted `pass` entry's password is exactly its first line, and its address and user name are screened.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let options = input.byte()
    let bytes = input.rest()
    let lineLimit = bytes.count + 1

    var previous = 0
    var fieldBytes = 0
    CSVReader.read(bytes, { record in
        invariant(record.line > previous && record.line <= record.lastLine && record.lastLine <= lineLimit, "a record outside the file")
        previous = record.lastLine
        for k in 0..<record.count { fieldBytes += record.bytes(k).count }
        invariant(record.bytes(record.count).isEmpty && record.bytes(-1).isEmpty, "a missing field is not empty")
    }, problem: { _, line, last in
        invariant(line > previous && line <= last && last <= lineLimit, "a problem outside the file")
        previous = last
    })
    invariant(fieldBytes <= bytes.count, "more field bytes than the file holds")

    // A decrypted `pass` entry: its password is its first line, its text is screened like any file's.
    let pass = PassStoreReader.entry(bytes, path: options & 2 == 2 ? "web/forum.example.com/ann" : "x", position: .entry(1), date: nil)
    invariant(Sanitizer.singleLine(pass.url) == pass.url && Sanitizer.singleLine(pass.username) == pass.username, "unscreened pass text")
    invariant((pass.password?.count ?? 0) == (bytes.firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) ?? bytes.count),
              "a pass password that is not the first line")

    let forced: LoginExportFormat? = options & 1 == 1
        ? LoginExportFormat.allCases[Int(options >> 1) % LoginExportFormat.allCases.count] : nil
    let reading: LoginReading
    do {
        let detected = forced == nil ? try? LoginExportDetector.detect(bytes) : nil
        reading = try LoginExportReader.read(bytes, format: forced)
        invariant(reading.format == (forced ?? detected), "the reading is not of the format detected or asked for")
    } catch let error as LoginReadError {
        invariant(!error.message.isEmpty && Sanitizer.singleLine(error.message) == error.message, "a refusal without a clean message")
        if case let .invalidXML(line) = error { invariant(line >= 1 && line <= lineLimit, "an XML error outside the file") }
        return 0
    } catch {
        invariant(false, "a reader threw something other than a LoginReadError: \(type(of: error))")
        return 0
    }
    var positions = reading.logins.map(\.position) + reading.skipped.map(\.position)
    positions.sort { order($0) < order($1) }
    for position in positions {
        switch position {
        case let .lines(first, last): invariant(first >= 1 && first <= last && last <= lineLimit, "a line outside the file")
        case let .entry(n): invariant(n >= 1 && n <= bytes.count, "an entry number no file that size can hold")
        }
    }
    for login in reading.logins {
        invariant(Sanitizer.singleLine(login.url) == login.url && Sanitizer.singleLine(login.username) == login.username,
                  "unscreened text kept")
        invariant(login.url.count <= ImportedLogin.maxTextLength && login.username.count <= ImportedLogin.maxTextLength, "text too long")
        if case let .success(site) = login.site {
            invariant(site.domain == site.domain.lowercased() && site.domain.contains(".") && !site.domain.hasSuffix(".")
                      && !site.domain.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty),
                      "a site that is not a host name")
        }
        invariant(login.password.map { $0.count > 0 } ?? true, "an empty password kept as one")
    }
    for skip in reading.skipped { invariant(!skip.message.isEmpty, "a skip without a reason") }
    return 0
}

private func order(_ p: LoginPosition) -> Int {
    switch p {
    case let .lines(first, _): return first
    case let .entry(n): return n
    }
}

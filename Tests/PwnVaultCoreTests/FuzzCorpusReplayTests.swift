import XCTest
import TestSupport
@testable import PwnVaultCore

/// The named inputs of the fuzz corpora (Fuzz/corpus/TARGET: the seeds and the `regression-…` inputs of
/// bugs fuzzing found) run once through the parser their target exercises, with the targets' main
/// invariants. The fuzzers need an instrumented build (minutes); this replay costs CI milliseconds, so
/// a regression input fails CI as soon as the bug it was kept for comes back. The inputs a campaign
/// merged in (named by their SHA-1) are replayed by `scripts/fuzz.sh --replay`.
final class FuzzCorpusReplayTests: XCTestCase {
    private func corpus(_ target: String) throws -> [(name: String, bytes: [UInt8])] {
        let folder = PackageRoot.url.appendingPathComponent("Fuzz/corpus/\(target)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            .filter { name in !(name.count == 40 && name.allSatisfy(\.isHexDigit)) }
        XCTAssertFalse(names.isEmpty, "no corpus for \(target)")
        return try names.map { ($0, Array(try Data(contentsOf: folder.appendingPathComponent($0)))) }
    }

    func testVaultHeaderCorpus() throws {
        for (name, file) in try corpus("vault-header") {
            guard let header = try? VaultFile.readHeader(file) else { continue }
            XCTAssertEqual(header.bytes, Array(file.prefix(VaultHeader.size)), name)
        }
    }

    func testPayloadJSONCorpus() throws {
        for (name, json) in try corpus("payload-json") {
            guard let payload = try? json.withUnsafeBytes({ try PayloadJSONReader.read($0) }),
                  let length = try? PayloadJSONWriter.length(of: payload) else { continue }
            var written = [UInt8](repeating: 0, count: length)
            try written.withUnsafeMutableBytes { try PayloadJSONWriter.write(payload, into: $0) }
            XCTAssertEqual(try written.withUnsafeBytes { try PayloadJSONReader.read($0) }, payload, name)
        }
    }

    func testVCardCorpus() throws {
        for (name, input) in try corpus("vcard") where !input.isEmpty {
            do {
                let reading = try VCardParser.read(Array(input.dropFirst()), locale: input[0] & 2 == 2 ? "ru_RU.KOI8-R" : nil)
                XCTAssertFalse(reading.contacts.isEmpty && reading.skippedContacts.isEmpty, name)
                for skip in reading.skippedLines + reading.skippedContacts {
                    XCTAssertTrue(skip.line >= 1 && skip.line <= skip.lastLine && skip.lastLine <= input.count + 2, "\(name): \(skip)")
                }
                let plan = ContactImportPlan(contacts: reading.contacts, includePhones: input[0] & 1 == 1, maxLabelLength: 64)
                for contact in plan.contacts { XCTAssertEqual(contact.label.map { Sanitizer.singleLine($0.text) }, contact.label?.text, name) }
            } catch {
                XCTAssertTrue(error is VCardError, "\(name): \(error)")
            }
        }
    }

    func testHIBPJSONCorpus() throws {
        for (_, body) in try corpus("hibp-json") {
            let response = HTTPResponse(status: 200, body: Data(body))
            _ = try? HIBPClient.decode(response) as [Breach]
            _ = try? HIBPClient.decode(response) as Breach
            _ = try? HIBPClient.decode(response) as [Paste]
            _ = try? HIBPClient.decode(response) as SubscriptionStatus
        }
    }

    func testHTMLTextCorpus() throws {
        for (name, input) in try corpus("html-text") where !input.isEmpty {
            let (text, links) = HTMLText.render(String(decoding: input.dropFirst(), as: UTF8.self), width: Int(input[0] % 100) - 1)
            XCTAssertFalse(text.unicodeScalars.contains { $0 != "\n" && Sanitizer.isStripped($0) }, name)
            XCTAssertFalse(links.joined().unicodeScalars.contains { Sanitizer.isStripped($0) }, name)
        }
    }

    func testPasswordRangeCorpus() throws {
        for (_, input) in try corpus("password-range") where input.count >= PasswordRange.suffixLength {
            let suffix = input.prefix(PasswordRange.suffixLength).map { Array("0123456789ABCDEF".utf8)[Int($0 & 0x0F)] }
            let body = Array(input.dropFirst(PasswordRange.suffixLength))
            _ = suffix.withUnsafeBytes { s in body.withUnsafeBytes { try? PasswordRange.timesSeen(suffix: s, in: $0) } }
        }
    }

    func testAccountMaskCorpus() throws {
        for (name, input) in try corpus("account-mask") {
            guard let parsed = try? AccountParser.parse(String(decoding: input, as: UTF8.self)) else { continue }
            let mask = Masking.mask(parsed.normalized, kind: parsed.kind)
            XCTAssertEqual(mask.components(separatedBy: Masking.bullets).count, parsed.kind == .email ? 3 : 2, name)
            // Every run of bullets, counted in scalars (a bullet inside a longer Character draws as one), is three long.
            let runs = mask.unicodeScalars.split(whereSeparator: { $0 != "•" }).map(\.count)
            XCTAssertEqual(Set(runs), [3], "\(name): \(runs)")
        }
    }
}

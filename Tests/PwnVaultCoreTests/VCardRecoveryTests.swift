import XCTest
@testable import PwnVaultCore

/// Files with one odd line, as real exporters and hand edits leave them (Tests/Fixtures/vcard): the
/// odd line is skipped and named by its line, every good contact is read.
final class VCardRecoveryTests: XCTestCase {
    private func read(_ name: String) throws -> VCardReading {
        let r = try VCardParser.read(try VCardCharsetTests.fixture(name), locale: nil)
        for skip in r.skippedLines + r.skippedContacts { XCTAssertFalse(skip.message.contains("example"), skip.message) }
        return r
    }

    private func emails(_ r: VCardReading) -> [[String]] { r.contacts.map { $0.emails.map(\.value) } }

    func testKAddressBooksMessagingNamesAreSkipped() throws {
        let r = try read("kaddressbook-x-messaging.vcf")
        XCTAssertEqual(r.contacts.map(\.name), ["Anna Schmidt", "Klaus Weber"])
        XCTAssertEqual(emails(r), [["anna.schmidt@example.de"], ["klaus.weber@example.de"]])
        XCTAssertEqual(r.skippedLines.map(\.message), ["lines 7-8: a property name with characters names cannot have"])
    }

    func testAnFNWithoutAColonIsSkippedAndNGivesTheName() throws {
        let r = try read("fn-without-colon.vcf")
        XCTAssertEqual(r.skippedLines, [VCardSkip(.missingColon(line: 3), line: 3)])
        XCTAssertEqual(r.contacts.first?.name, "Peter Jansen")
        XCTAssertEqual(emails(r), [["peter.jansen@example.nl"]])
    }

    func testATruncatedPhotoCostsOnlyItsOwnLines() throws {
        let r = try read("truncated-photo.vcf")
        XCTAssertEqual(r.contacts.map(\.name), ["Mikko Virtanen", "Aino Korhonen"])
        XCTAssertEqual(emails(r), [["mikko.virtanen@example.fi"], ["aino.korhonen@example.fi"]])
        XCTAssertEqual(r.contacts.first?.phones.map(\.value), ["+358 40 123 4567"])
        // The unfolded base64 lines are unreadable; the cut-off base64 of the second PHOTO is never decoded.
        XCTAssertEqual(r.skippedLines, [VCardSkip(.missingColon(line: 6), line: 6, lastLine: 7)])
        let plan = ContactImportPlan(contacts: r.contacts, includePhones: true, maxLabelLength: 64)
        XCTAssertEqual(plan.addresses.count, 3, "every good address of the file is imported")
    }

    func testAndroidsBackslashContinuationIsJoinedAsALineBreak() throws {
        let r = try read("android-21-backslash.vcf")
        XCTAssertEqual(r.skippedLines, [])
        XCTAssertEqual(r.contacts.map(\.name), ["Jan Kowalski", "Ewa Nowak"])
        XCTAssertEqual(emails(r), [["jan.kowalski@example.pl"], ["ewa.nowak@example.pl"]],
                       "a line that is a property of its own is not swallowed by a value ending in a backslash")
        var lines: [VCardLogicalLine] = []
        VCardLineReader.forEachLogicalLine(in: try VCardCharsetTests.fixture("android-21-backslash.vcf")) { lines.append($0) }
        let address = try XCTUnwrap(lines.first { $0.bytes.starts(with: Array("ADR".utf8)) })
        XCTAssertEqual(String(decoding: address.bytes, as: UTF8.self), #"ADR;HOME:;;ul. Dluga 5\nm. 12;Krakow;;30-001;Poland"#)
        XCTAssertEqual(address.line, 6)
        XCTAssertEqual(address.lastLine, 7)
    }

    func testAnAgentsVCardIsSkippedWithoutEndingTheOuterCard() throws {
        let r = try read("agent-nested.vcf")
        XCTAssertEqual(r.contacts.map(\.name), ["Erik Lindqvist", "Olof Berg"])
        XCTAssertEqual(emails(r), [["erik.lindqvist@example.se"], ["olof.berg@example.se"]], "the agent's address is not the contact's")
        XCTAssertEqual(r.skippedLines.map(\.message), [
            "lines 6-10: a vCard inside this contact (AGENT); only the outer contact is read",
            "line 16: a vCard inside this contact (AGENT); only the outer contact is read",
        ])
        XCTAssertEqual(r.skippedContacts, [])
    }

    func testCommentLinesAreIgnored() throws {
        let r = try read("comments.vcf")
        XCTAssertEqual(r.skippedLines, [])
        XCTAssertEqual(r.contacts.map(\.name), ["Hannah Meier"])
        XCTAssertEqual(r.contacts.first?.line, 2)
        XCTAssertEqual(emails(r), [["hannah.meier@example.ch"]])
    }

    func testTelURIsGiveTheirNumberAndASIPAddressIsNotAPhoneNumber() throws {
        let r = try read("tel-uri.vcf")
        let phones = try XCTUnwrap(r.contacts.first?.phones)
        XCTAssertEqual(phones, [VCardAddress(value: "+1-555-555-5555", line: 4, note: .extensionDropped),
                                VCardAddress(value: "+33-01-23-45-67", line: 5),
                                VCardAddress(value: "sip:jane.doe@example.com", line: 6, note: .notAPhoneNumber(scheme: "sip"))])
        let plan = ContactImportPlan(contacts: r.contacts, includePhones: true, maxLabelLength: 64)
        XCTAssertEqual(plan.addresses.map(\.account.kind), [.email, .phone])
        XCTAssertEqual(plan.addresses.map(\.line), [7, 4])
        XCTAssertEqual(plan.extensionsDropped, [4])
        // RFC 6350's second example, +33-01-23-45-67, has 8 digits after France's +33 (French numbers
        // have 9, and no trunk 0 after the country code): libphonenumber refuses it, and says why.
        XCTAssertEqual(plan.invalid, [ContactImportPlan.Invalid(line: 5, kind: .phone, reason: "the phone number is too short for its country (or lacks its area code)"),
                                      ContactImportPlan.Invalid(line: 6, kind: .phone, reason: "not a phone number (a sip: address)")])
        XCTAssertEqual(plan.contacts.first?.label?.text, "Jane Doe")
    }
}

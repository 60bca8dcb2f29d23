import XCTest
@testable import PwnVaultCore

/// From parsed contacts to what `import` adds: validation, labels, repeats, counts.
final class VCardImportPlanTests: XCTestCase {
    private func plan(_ text: String, phones: Bool = false, maxLabel: Int = 64,
                      file: StaticString = #filePath, line: UInt = #line) throws -> ContactImportPlan {
        ContactImportPlan(contacts: try VCardParser.parse(VCardExporterTests.crlf(text)), includePhones: phones,
                          maxLabelLength: maxLabel)
    }

    func testEveryExporterSampleGivesLabelledNormalisedAddresses() throws {
        let all = VCardExporterTests.evolution + VCardExporterTests.google + VCardExporterTests.apple
            + VCardExporterTests.thunderbird + VCardExporterTests.nokia
        let p = try plan(all)
        XCTAssertEqual(p.contactCount, 10)
        XCTAssertEqual(p.invalid, [])
        XCTAssertEqual(p.repeated, [])
        XCTAssertEqual(p.contactsWithoutAddress, 0)
        XCTAssertEqual(p.phonesIgnored, 5)
        XCTAssertEqual(p.addresses.count, 16)
        XCTAssertTrue(p.addresses.allSatisfy { $0.account.kind == .email })
        XCTAssertEqual(p.contacts.map(\.label?.text), ["Marie-Hélène Lefèvre", "Paul Martin", "Dad", "Riverside Surgery",
                                                 "Dr. Johnny Q. Appleseed Jr.", "Green Grocer, Ltd", "田中 健二",
                                                 "Chiamaka Okafor", "Иван Иванов", "René François"])
    }

    func testInvalidAddressesAreSkippedWithTheirLineAndReasonAndTheOthersKept() throws {
        let p = try plan("""
        BEGIN:VCARD
        FN:Alice
        EMAIL:alice@example
        EMAIL:alice@example.com
        EMAIL:alice
        EMAIL:alice@@example.com
        END:VCARD
        """)
        XCTAssertEqual(p.addresses.map(\.account.normalized), ["alice@example.com"])
        XCTAssertEqual(p.addresses.map(\.line), [4])
        XCTAssertEqual(p.invalid.map(\.line), [3, 5, 6])
        XCTAssertEqual(p.invalid.map(\.kind), [.email, .email, .email])
        XCTAssertEqual(p.invalid[0].reason, AccountParseError.domainWithoutDot.message)
        XCTAssertEqual(p.invalid[1].reason, "the e-mail address has no '@'", "a username is not an e-mail address")
        XCTAssertEqual(p.invalid[2].reason, AccountParseError.tooManyAtSigns.message)
        for i in p.invalid { XCTAssertFalse(i.reason.contains("alice"), i.reason) }
    }

    func testAContactWhoseOnlyAddressIsInvalidIsNotCountedAsWithoutAddress() throws {
        let p = try plan("BEGIN:VCARD\nFN:A\nEMAIL:not valid\nEND:VCARD\nBEGIN:VCARD\nFN:B\nEND:VCARD\n")
        XCTAssertEqual(p.contacts.count, 0)
        XCTAssertEqual(p.invalid.count, 1)
        XCTAssertEqual(p.contactsWithoutAddress, 1)
    }

    func testRepeatsInTheFileAreCaseInsensitiveAndKeepTheFirstContactsLabel() throws {
        let p = try plan("""
        BEGIN:VCARD
        FN:Mum
        EMAIL:Jane.Doe@Example.com
        EMAIL:jane.doe@example.com
        END:VCARD
        BEGIN:VCARD
        FN:Jane Doe (work)
        EMAIL:JANE.DOE@EXAMPLE.COM
        EMAIL:jd@example.org
        END:VCARD
        """)
        XCTAssertEqual(p.repeated, [.init(line: 4, firstLine: 3), .init(line: 8, firstLine: 3)])
        XCTAssertEqual(p.contacts.map(\.label?.text), ["Mum", "Jane Doe (work)"])
        XCTAssertEqual(p.contacts.map { $0.addresses.map(\.account.entered) }, [["Jane.Doe@Example.com"], ["jd@example.org"]])
    }

    func testPhonesOnlyWithIncludePhonesAndValidatedAsPhoneNumbers() throws {
        let text = """
        BEGIN:VCARD
        FN:Grandad
        TEL;TYPE=HOME:+44 20 7946 0958
        TEL;VALUE=uri:tel:+1-555-555-0100
        TEL:ext. 12
        TEL:12
        END:VCARD
        """
        let without = try plan(text)
        XCTAssertEqual(without.contacts.count, 0)
        XCTAssertEqual(without.contactsWithoutAddress, 1)
        XCTAssertEqual(without.phonesIgnored, 4)

        let with = try plan(text, phones: true)
        XCTAssertEqual(with.phonesIgnored, 0)
        XCTAssertEqual(with.addresses.map(\.account.normalized), ["+442079460958", "+15555550100"])
        XCTAssertEqual(with.addresses.map(\.account.kind), [.phone, .phone])
        XCTAssertEqual(with.invalid.map(\.line), [5, 6])
        XCTAssertEqual(with.invalid.map(\.kind), [.phone, .phone])
    }

    func testLabelsFallBackFromFNToNToORGAndNoneAtAll() throws {
        let p = try plan("""
        BEGIN:VCARD
        FN:Full Name
        N:Family;Given;;;
        EMAIL:a@example.com
        END:VCARD
        BEGIN:VCARD
        N:Family;Given;;;
        ORG:Org
        EMAIL:b@example.com
        END:VCARD
        BEGIN:VCARD
        ORG:Org Only;Unit
        EMAIL:c@example.com
        END:VCARD
        BEGIN:VCARD
        EMAIL:d@example.com
        END:VCARD
        """)
        XCTAssertEqual(p.contacts.map(\.label?.text), ["Full Name", "Given Family", "Org Only", nil])
    }

    func testLabelsAreCleanedOfTerminalControlAndLineBreaksAndCollapsed() {
        XCTAssertEqual(ContactImportPlan.label("Evil\u{1B}]0;pwned\u{07} \u{1B}[31mName\u{1B}[0m\n\tline  two\u{202E}", maxLength: 64),
                       "Evil Name line two")
        XCTAssertNil(ContactImportPlan.label("\u{1B}[2J \n ", maxLength: 64))
        XCTAssertNil(ContactImportPlan.label(nil, maxLength: 64))
    }

    func testLongLabelsAreCutToTheLimitWithAnEllipsis() {
        let long = String(repeating: "Wolfeschlegelsteinhausen ", count: 6)
        let label = ContactImportPlan.label(long, maxLength: 64)
        XCTAssertEqual(label?.count, 64)
        XCTAssertEqual(label?.last, "…")
        XCTAssertTrue(long.hasPrefix(String(label!.dropLast())))
        XCTAssertEqual(ContactImportPlan.label(String(repeating: "é", count: 64), maxLength: 64), String(repeating: "é", count: 64))
        XCTAssertEqual(ContactImportPlan.label("word " + String(repeating: "x", count: 70), maxLength: 7), "word x…")
    }

    func testTheLabelLimitAppliesToNamesFromTheFile() throws {
        let p = try plan("BEGIN:VCARD\nFN:\(String(repeating: "Ab", count: 50))\nEMAIL:ab@example.com\nEND:VCARD\n", maxLabel: 10)
        XCTAssertEqual(p.contacts.first?.label?.text, "AbAbAbAbA…")
    }
}

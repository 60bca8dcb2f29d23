import XCTest
@testable import PwnVaultCore

/// Phone numbers read into E.164 with libphonenumber (through libPwnVaultPhone.so, beside the test
/// bundle as beside the binary): national forms in a region, international forms anywhere.
final class PhoneNumberTests: XCTestCase {
    private func e164(_ raw: String, region: String?, file: StaticString = #filePath, line: UInt = #line) -> String? {
        do {
            let p = try AccountParser.parse(raw, phones: PhoneNumbering(region: region.flatMap(PhoneRegion.init(code:))))
            XCTAssertEqual(p.kind, .phone, raw, file: file, line: line)
            XCTAssertEqual(p.dedupKey.value, p.normalized, file: file, line: line)
            return p.normalized
        } catch {
            XCTFail("\(raw) in \(region ?? "no region") was refused: \(error)", file: file, line: line)
            return nil
        }
    }

    private func refusal(_ raw: String, region: String?) -> AccountParseError? {
        do {
            _ = try AccountParser.parse(raw, phones: PhoneNumbering(region: region.flatMap(PhoneRegion.init(code:))))
            return nil
        } catch {
            return error as? AccountParseError
        }
    }

    func testALookalikeCheckBetweenTwoPhoneNumbersLeavesBothWorking() throws {
        // What `ui` does adding a number, a look-alike address, then a number: libphonenumber holds ICU
        // objects from the first; releasing the look-alike checker must not free ICU under it.
        XCTAssertEqual(e164("+44 7700 900123", region: nil), "+447700900123")
        for _ in 0..<2 {
            let checker = try ICUSpoofChecker.load()
            XCTAssertTrue(checker.isSuspicious("\u{430}lice" + "o"))
        }
        XCTAssertEqual(e164("07700 900124", region: "GB"), "+447700900124")
        XCTAssertEqual(e164("+1 201-555-0123", region: nil), "+12015550123")
    }

    /// (region, as dialled there, written internationally, E.164).
    static let countries: [(String, String, String, String)] = [
        ("GB", "07700 900123", "+44 7700 900123", "+447700900123"),
        ("US", "(201) 555-0123", "+1 201-555-0123", "+12015550123"),
        ("DE", "030 1234567", "+49 30 1234567", "+49301234567"),
        ("FR", "06 12 34 56 78", "+33 6 12 34 56 78", "+33612345678"),
        ("IN", "098765 43210", "+91 98765 43210", "+919876543210"),
        ("JP", "03-1234-5678", "+81 3-1234-5678", "+81312345678"),
        ("BR", "(11) 91234-5678", "+55 11 91234-5678", "+5511912345678"),
        ("AU", "0412 345 678", "+61 412 345 678", "+61412345678"),
        ("ZA", "082 123 4567", "+27 82 123 4567", "+27821234567"),
        ("CN", "138 0013 8000", "+86 138 0013 8000", "+8613800138000"),
        ("NL", "06-12345678", "+31 6 12345678", "+31612345678"),
        ("IT", "312 345 6789", "+39 312 345 6789", "+393123456789"),
    ]

    func testNationalFormsAreReadInTheirRegionAndInternationalFormsAnywhere() {
        for (region, national, international, expected) in Self.countries {
            XCTAssertEqual(e164(national, region: region), expected, "\(region) national")
            XCTAssertEqual(e164(international, region: nil), expected, "\(region) international, no region")
            XCTAssertEqual(e164(international, region: region == "JP" ? "GB" : "JP"), expected, "\(region) international, another region")
            XCTAssertEqual(e164(expected, region: region), expected, "\(region) E.164 reads as itself")
        }
    }

    func testANationalFormWithoutARegionIsRefusedWithAHintNamingRegion() {
        for (region, national, _, _) in Self.countries where region != "IT" {   // 312… has no trunk 0; it is also a possible number elsewhere
            XCTAssertEqual(refusal(national, region: nil), .phoneWithoutRegion, region)
        }
        XCTAssertTrue(AccountParseError.phoneWithoutRegion.hint!.contains("--region GB"))
    }

    func testTwoFormsOfOneNumberAreOneAccount() throws {
        let gb = PhoneNumbering(region: PhoneRegion(code: "GB"))
        let forms = ["07700900123", "07700 900123", "+447700900123", "+44 (0)7700 900-123", "0044 7700 900123", "tel:+44-7700-900123"]
        let keys = try Set(forms.map { try AccountParser.parse($0, phones: gb).dedupKey })
        XCTAssertEqual(keys.count, 1)
    }

    func testShortNumbersAreRefusedAsAmbiguous() {
        for region in ["GB", "US", nil] {
            XCTAssertEqual(refusal("123", region: region), .shortNumber)
            XCTAssertEqual(refusal("999", region: region), .shortNumber)
        }
        XCTAssertEqual(refusal("555 1234", region: "US"), .phoneTooShort)   // a local number without its area code
    }

    func testATelURIGivesTheNumberWithoutItsExtension() throws {
        let p = try AccountParser.parse("tel:+1-201-555-0123;ext=5555", phones: .internationalOnly)
        XCTAssertEqual(p.normalized, "+12015550123")
        XCTAssertTrue(p.droppedExtension)
        XCTAssertFalse(try AccountParser.parse("tel:+1-201-555-0123", phones: .internationalOnly).droppedExtension)
        XCTAssertFalse(try AccountParser.parse("+1 201 555 0123", phones: .internationalOnly).droppedExtension)
    }

    // MARK: the region

    func testTheRegionComesFromTheLocaleInPOSIXOrder() throws {
        func region(_ environment: [String: String]) throws -> String? { try Settings(environment: environment).telephoneRegion?.code }
        XCTAssertEqual(try region(["LANG": "en_GB.UTF-8"]), "GB")
        XCTAssertEqual(try region(["LANG": "de_DE@euro"]), "DE")
        XCTAssertEqual(try region(["LANG": "en_GB.UTF-8", "LC_TELEPHONE": "fr_FR.UTF-8"]), "FR")
        XCTAssertEqual(try region(["LC_ALL": "ja_JP.UTF-8", "LC_TELEPHONE": "fr_FR.UTF-8", "LANG": "en_GB.UTF-8"]), "JP")
        XCTAssertEqual(try region(["LC_ALL": "", "LANG": "pt_BR.UTF-8"]), "BR")
        for none in ["C", "POSIX", "C.UTF-8", "en", "es_419.UTF-8", "en_GBR"] {
            XCTAssertNil(try region(["LANG": none]), none)
        }
        XCTAssertNil(try region([:]))
        XCTAssertNil(try region(["LC_ALL": "C", "LANG": "en_GB.UTF-8"]))
    }

    func testANumberIsReadInTheLocalesRegion() throws {
        let settings = try Settings(environment: ["LANG": "en_AU.UTF-8"])
        let p = try AccountParser.parse("0412 345 678", phones: PhoneNumbering(region: settings.telephoneRegion))
        XCTAssertEqual(p.normalized, "+61412345678")
    }

    func testRegionCodesAreTwoLettersLibphonenumberKnows() throws {
        XCTAssertEqual(PhoneRegion(code: "gb")?.code, "GB")
        for bad in ["G", "GBR", "G1", "", "ÜK", "4 "] { XCTAssertNil(PhoneRegion(code: bad), bad) }
        let numbering = PhoneNumbering.internationalOnly
        XCTAssertTrue(try numbering.knows(PhoneRegion(code: "GB")!))
        XCTAssertFalse(try numbering.knows(PhoneRegion(code: "UK")!))
        XCTAssertFalse(try numbering.knows(PhoneRegion(code: "ZZ")!))
        // A locale's region libphonenumber does not know counts as none.
        XCTAssertEqual(refusal("07700 900123", region: "XX"), .phoneWithoutRegion)
    }

    // MARK: vaults written before

    func testAVaultHoldingTwoFormsOfOneNumberIsReportedByIDNeverMerged() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let payload = VaultPayload(nextID: 5, accounts: [
            Account(id: 1, entered: "07700 900123", normalized: "07700900123", kind: .phone, label: nil, addedAt: now),
            Account(id: 2, entered: "alice@example.com", normalized: "alice@example.com", kind: .email, label: nil, addedAt: now),
            Account(id: 3, entered: "+44 7700 900123", normalized: "+447700900123", kind: .phone, label: nil, addedAt: now),
            Account(id: 4, entered: "+1 201 555 0123", normalized: "+12015550123", kind: .phone, label: nil, addedAt: now),
        ])
        let gb = PhoneNumbering(region: PhoneRegion(code: "GB"))
        XCTAssertEqual(payload.samePhoneNumbers(phones: gb), [[1, 3]])
        XCTAssertEqual(payload.accountKeys(phones: gb).map(\.key.value), ["+447700900123", "alice@example.com", "+447700900123", "+12015550123"])
        // Without a region the national form cannot be read: it keeps its key, and nothing is claimed.
        XCTAssertEqual(payload.samePhoneNumbers(phones: .internationalOnly), [])
        XCTAssertEqual(payload.accounts.count, 4)
    }

    // MARK: the library

    func testAMissingShimIsOneErrorWithAHint() {
        XCTAssertThrowsError(try PhoneNumberLibrary.load(candidates: ["/nonexistent/libPwnVaultPhone.so"])) { error in
            guard let e = error as? PhoneLibraryError, case .notFound = e else { return XCTFail("\(error)") }
            XCTAssertEqual(e.message, "phone numbers cannot be read: pwnvault's libPwnVaultPhone.so is missing")
            XCTAssertTrue(e.hint!.contains("make install"))
        }
        XCTAssertEqual(PhoneLibraryError.libphonenumberMissing.hint, "install it with: apt-get install libphonenumber8")
        let missing = PhoneNumbering(region: nil, library: { throw PhoneLibraryError.libphonenumberMissing })
        XCTAssertThrowsError(try AccountParser.parse("+44 7700 900123", phones: missing)) {
            XCTAssertEqual($0 as? PhoneLibraryError, .libphonenumberMissing)
        }
        // Only phone numbers need it.
        XCTAssertEqual(try AccountParser.parse("alice@example.com", phones: missing).kind, .email)
        XCTAssertEqual(try AccountParser.parse("alice", phones: missing).kind, .username)
    }

    func testTheShimIsFoundBesideTheImageAndNeedsNoSwiftRuntime() throws {
        let library = try PhoneNumberLibrary.shared()
        XCTAssertTrue(library.path.hasSuffix("/" + PhoneNumberLibrary.fileName), library.path)
        let image = try XCTUnwrap(PhoneNumberLibrary.imagePath)
        XCTAssertEqual(PhoneNumberLibrary.defaultCandidates(image: "/usr/local/bin/pwnvault"),
                       ["/usr/local/lib/pwnvault/libPwnVaultPhone.so", "/usr/local/bin/libPwnVaultPhone.so"])
        XCTAssertTrue(PhoneNumberLibrary.defaultCandidates(image: image).contains(library.path))
    }
}

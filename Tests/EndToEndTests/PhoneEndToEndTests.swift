import Foundation
import XCTest

/// Issue 20, item 4: phone numbers are stored in E.164, national forms read in the locale's region or
/// --region's, through the real binary (which loads libPwnVaultPhone.so from beside itself).
final class PhoneEndToEndTests: XCTestCase {
    func testANationalAndAnInternationalFormAreOneAccountUnderABritishLocale() throws {
        let s = try Sandbox(inProcess: true, keyring: false)
        s.initVault()
        let gb = ["LANG": "en_GB.UTF-8"]
        let first = s.run(["add", "07700900123"], env: gb)
        XCTAssertEqual(first.status, 0, first.all)
        XCTAssertEqual(first.stdout, "added #1  phone\n")
        let second = s.run(["add", "+447700900123"], env: gb)
        XCTAssertEqual(second.status, 0, second.all)
        XCTAssertEqual(second.stderr, "pwnvault: argument 1 is already in the vault as #1; not added again\npwnvault: nothing new to add\n")
        XCTAssertEqual(s.run(["list", "--json"]).stdout.components(separatedBy: "\"id\"").count - 1, 1)
        // Another way of writing it, in another locale, with --region: still #1.
        let third = s.run(["add", "--region", "gb", "07700 900-123"], env: ["LANG": "C"])
        XCTAssertTrue(third.stderr.contains("already in the vault as #1"), third.all)
    }

    func testANationalNumberWithoutARegionIsRefusedWithAHintAndNothingOfItIsEchoed() throws {
        let s = try Sandbox(inProcess: true, keyring: false)
        s.initVault()
        let r = s.run(["add", "(555) 123-4567"], env: ["LANG": "C"])
        XCTAssertEqual(r.status, 2, r.all)
        XCTAssertEqual(r.stderr, """
            pwnvault: error: argument 1: the phone number has no country code, and no region is set to read it in; nothing was added
            pwnvault: hint: write it with its country code (+44 7700 900123), or name its country with --region GB (add, import) or a locale such as LANG=en_GB.UTF-8

            """)
        let short = s.run(["add", "4711"])
        XCTAssertEqual(short.status, 2, short.all)
        XCTAssertTrue(short.stderr.contains("too short to be a phone number"), short.stderr)
        XCTAssertFalse(short.stderr.contains("4711"), short.stderr)
        let badRegion = s.run(["add", "--region", "QQ", "07700900123"])
        XCTAssertEqual(badRegion.status, 2, badRegion.all)
        XCTAssertTrue(badRegion.stderr.contains("invalid value for '--region'"), badRegion.stderr)
        XCTAssertFalse(badRegion.stderr.contains("QQ"), badRegion.stderr)
        XCTAssertEqual(s.run(["list", "--json"]).stdout.components(separatedBy: "\"id\"").count - 1, 0)
    }

    func testATelURIsExtensionIsLeftOutWithANote() throws {
        let s = try Sandbox(inProcess: true, keyring: false)
        s.initVault()
        let r = s.run(["add", "tel:+1-201-555-0123;ext=5555"])
        XCTAssertEqual(r.status, 0, r.all)
        XCTAssertEqual(r.stderr, "pwnvault: argument 1: the phone number's extension was left out (HIBP knows numbers, not extensions)\n")
        XCTAssertTrue(s.run(["add", "+1 201 555 0123"]).stderr.contains("already in the vault as #1"))
    }

    /// Issue 32: a national number read in the locale's region says once which country was assumed, by
    /// its name in the reader's language (ICU's, through the real binary), with its calling code and how
    /// to choose another; nothing when --region chose or the number had its country code.
    func testTheAssumedCountryIsNamedInTheReadersLanguage() throws {
        let s = try Sandbox(keyring: false)
        s.initVault()
        let gb = s.run(["add", "07700900123", "07700900124"], env: ["LANG": "en_GB.UTF-8"])
        XCTAssertEqual(gb.status, 0, gb.all)
        XCTAssertEqual(gb.stderr, "pwnvault: a number without its country code was read as a number of your locale's country, "
                       + "United Kingdom (+44); another country: --region US\n")
        let chosen = s.run(["add", "--region", "GB", "07700900125"], env: ["LANG": "en_GB.UTF-8"])
        XCTAssertEqual(chosen.status, 0, chosen.all)
        XCTAssertEqual(chosen.stderr, "")
        let international = s.run(["add", "+49 30 12345678"], env: ["LANG": "en_GB.UTF-8"])
        XCTAssertEqual(international.stderr, "")
        let de = s.run(["add", "030 12345679"], env: ["LANG": "de_DE.UTF-8"])
        XCTAssertTrue(de.stderr.contains("country, Germany (+49); another country: --region GB"), de.all)

        let zh = s.run(["add", "13800138000"], env: try ChineseLocale.chinese())
        XCTAssertEqual(zh.status, 0, zh.all)
        XCTAssertTrue(zh.stderr.contains("当作中国（+86）的号码读取"), zh.stderr)
        XCTAssertFalse(zh.stderr.contains("China") || zh.stderr.contains("CN"), zh.stderr)
        ChineseLocale.assertChinese(zh.stderr, english: nil, data: ["--region GB"], "the assumed country under zh_CN")
    }
}

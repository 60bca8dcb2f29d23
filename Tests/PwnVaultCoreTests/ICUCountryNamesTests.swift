import XCTest
@testable import PwnVaultCore

/// Issue 32: the country a national phone number was read in is named in the reader's language by
/// Debian's ICU (`uloc_getDisplayCountry`), for every region libphonenumber knows; its calling code comes
/// from libphonenumber. No table of names or codes is kept in pwnvault.
final class ICUCountryNamesTests: XCTestCase {
    private func names() throws -> ICUCountryNames {
        do { return try ICUCountryNames.load() } catch { throw XCTSkip("Debian's ICU is not installed: \(error)") }
    }

    private func region(_ code: String) -> PhoneRegion { PhoneRegion(code: code)! }

    func testEveryRegionLibphonenumberKnowsHasANameInEnglishAndChinese() throws {
        let names = try names()
        let regions = try PhoneNumberLibrary.shared().regions
        XCTAssertGreaterThan(regions.count, 200, "libphonenumber's regions: \(regions)")
        XCTAssertTrue(regions.contains(region("GB")) && regions.contains(region("CN")), "\(regions)")
        var unnamed: [String] = []
        for region in regions {
            for language in ["en", "zh_CN"] {
                guard let name = names.name(of: region, in: language) else { unnamed.append("\(region.code) in \(language)"); continue }
                XCTAssertFalse(name.trimmingWhitespace().isEmpty, region.code)
                XCTAssertEqual(name, Sanitizer.singleLine(name), "\(region.code) in \(language) is not sanitized")
                XCTAssertNotEqual(name, region.code, "\(region.code) in \(language): the code, not a name")
            }
        }
        XCTAssertEqual(unnamed, [], "regions without a name")
    }

    func testKnownNamesInEnglishAndChinese() throws {
        let names = try names()
        let expected: [(String, String, String)] = [("GB", "United Kingdom", "英国"), ("CN", "China", "中国"),
                                                    ("DE", "Germany", "德国"), ("US", "United States", "美国")]
        for (code, english, chinese) in expected {
            XCTAssertEqual(names.name(of: region(code), in: "en"), english, code)
            XCTAssertEqual(names.name(of: region(code), in: "zh_CN"), chinese, code)
        }
    }

    func testARegionICUDoesNotKnowHasNoName() throws {
        // ICU gives the code back for a region CLDR does not name: that is no name (the caller shows the code).
        XCTAssertNil(try names().name(of: region("QQ"), in: "en"))
    }

    func testCallingCodesComeFromLibphonenumber() throws {
        let library = try PhoneNumberLibrary.shared()
        XCTAssertEqual(library.callingCode(of: region("GB")), 44)
        XCTAssertEqual(library.callingCode(of: region("CN")), 86)
        XCTAssertEqual(library.callingCode(of: region("US")), 1)
        XCTAssertEqual(library.callingCode(of: region("AC")), 247)
        XCTAssertNil(library.callingCode(of: region("QQ")))
        for region in library.regions { XCTAssertNotNil(library.callingCode(of: region), region.code) }
    }

    func testAMissingLibraryIsReportedNotFatal() {
        XCTAssertThrowsError(try ICUCountryNames.load(candidates: ["/nonexistent/libicuuc.so.72"])) { e in
            XCTAssertTrue(String(describing: e).contains("could not be used"), "\(e)")
        }
        XCTAssertThrowsError(try ICUCountryNames.load(candidates: [])) { e in
            XCTAssertTrue(String(describing: e).contains("not installed"), "\(e)")
        }
        XCTAssertEqual(ICUSpoofChecker.systemLibraryFiles(folders: ["/nonexistent"], library: "libicuuc"), [])
    }

    func testTheLibraryIsFoundTheWayTheSpoofCheckersIs() {
        let files = ICUSpoofChecker.systemLibraryFiles(library: "libicuuc")
        XCTAssertTrue(files.allSatisfy { $0.lastPathComponent.hasPrefix("libicuuc.so.") }, "\(files)")
        XCTAssertEqual(ICUSpoofChecker.majorVersion(fromFileName: "/usr/lib/x86_64-linux-gnu/libicuuc.so.72.1", library: "libicuuc"), 72)
        XCTAssertNil(ICUSpoofChecker.majorVersion(fromFileName: "/usr/lib/x86_64-linux-gnu/libicuuc.so.72.1"))
    }
}

@testable import PwnVaultCLI
import PwnVaultCore
import XCTest

/// Issue 32: the note after a national number read in the locale's region names the country, in the
/// reader's language, from ICU; without ICU it names the region by its code.
final class AssumedRegionNoteTests: XCTestCase {
    private let gb = PhoneRegion(code: "GB")!, cn = PhoneRegion(code: "CN")!

    func testTheCountryIsNamedByICU() throws {
        guard let names = try? ICUCountryNames.load() else { throw XCTSkip("Debian's ICU is not installed") }
        XCTAssertEqual(RegionOption.assumedRegionNote(cn, callingCode: 86, names: names, language: "en"),
                       "a number without its country code was read as a number of your locale's country, China (+86); another country: --region GB")
        // The example of another country is not the one assumed.
        XCTAssertEqual(RegionOption.assumedRegionNote(gb, callingCode: 44, names: names, language: "en"),
                       "a number without its country code was read as a number of your locale's country, United Kingdom (+44); another country: --region US")
        XCTAssertTrue(RegionOption.assumedRegionNote(cn, callingCode: nil, names: names, language: "en").contains("country, China; another"))
    }

    func testWithoutICUTheRegionsCodeIsShown() {
        let missing = try? ICUCountryNames.load(candidates: ["/nonexistent/libicuuc.so.72"])
        XCTAssertNil(missing)
        XCTAssertEqual(RegionOption.assumedRegionNote(gb, callingCode: 44, names: missing, language: "en"),
                       "a number without its country code was read as a number of your locale's country, GB (+44); another country: --region US")
    }
}

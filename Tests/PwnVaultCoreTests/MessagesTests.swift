@testable import PwnVaultCore
import XCTest

/// `msg`: numbered placeholders filled in any order; the catalog folders looked at, in order.
final class MessagesTests: XCTestCase {
    func testPlaceholdersAreFilledByNumberInAnyOrder() {
        XCTAssertEqual(Messages.fill("{2} before {1}", ["a", 7]), "7 before a")
        XCTAssertEqual(Messages.fill("{1}{1}", ["x"]), "xx")
        XCTAssertEqual(Messages.fill("no {3} here, {x} or {", ["a"]), "no {3} here, {x} or {", "only {1}…{N} of the arguments given")
        XCTAssertEqual(Messages.fill("{1}", ["{2}", "b"]), "{2}", "an argument is never read again as a placeholder")
        XCTAssertEqual(msg("too many arguments (at most {1})", 3), "too many arguments (at most 3)", "English without a catalog")
    }

    func testCatalogFoldersFromTheEnvironmentTheInstallAndTheBuild() {
        XCTAssertEqual(Gettext.folders(environment: ["TEXTDOMAINDIR": "/opt/l"], executablePath: "/usr/local/bin/pwnvault"),
                       ["/opt/l", "/usr/local/share/locale", "/usr/local/locale", "/usr/locale"])
        XCTAssertEqual(Gettext.folders(environment: [:], executablePath: "/src/.build/x86_64-unknown-linux-gnu/debug/pwnvault").last,
                       "/src/.build/locale")
    }
}

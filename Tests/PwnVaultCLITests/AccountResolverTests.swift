@testable import PwnVaultCLI
import XCTest

final class AccountResolverTests: XCTestCase {
    func testIdFormsHashBareAndPercent() {
        XCTAssertEqual(AccountResolver.idForm("#8"), .some(8))
        XCTAssertEqual(AccountResolver.idForm("8"), .some(8))
        XCTAssertEqual(AccountResolver.idForm("%8"), .some(8))
        XCTAssertEqual(AccountResolver.idForm("#x"), .some(nil), "looks like an id, is not one")
        XCTAssertEqual(AccountResolver.idForm("#0"), .some(nil))
        XCTAssertNil(AccountResolver.idForm("alice@example.com") as Int??)
        XCTAssertNil(AccountResolver.idForm("+4915112345678") as Int??, "a phone number is not an id")
        XCTAssertNil(AccountResolver.idForm("0151123456789") as Int??, "ten digits and more: an account")
    }
}

import XCTest
@testable import PwnVaultCore

/// Issue 22: `watch` asks only for the accounts a catalog change can concern. Each rule both ways:
/// the change that concerns an account kind, and the one that cannot.
final class BreachCatalogDiffTests: XCTestCase {
    static let emailClasses = ["Email addresses", "Passwords"]

    static func breach(_ name: String, count: Int64 = 1_000, classes: [String] = emailClasses, sensitive: Bool = false,
                       retired: Bool = false, spam: Bool = false, verified: Bool = true, added: Double = 1_700_000_000,
                       modified: Double? = nil, description: String = "A breach.") -> Breach {
        Breach(name: name, addedDate: Date(timeIntervalSince1970: added),
               modifiedDate: Date(timeIntervalSince1970: modified ?? added), pwnCount: count, descriptionHTML: description,
               dataClasses: classes, isVerified: verified, isSensitive: sensitive, isRetired: retired, isSpamList: spam)
    }

    static let base = [breach("Adobe", count: 152_445_165), breach("Forum", classes: ["Passwords", "Usernames"]),
                       breach("Telco", classes: ["Phone numbers", "Names"])]

    /// The diff from `before` (as the vault remembers it, through its mark) to `after`.
    func diff(_ before: [Breach], _ after: [Breach]) throws -> BreachCatalogDiff {
        let mark = BreachCatalog(breaches: before, fetchedAt: Date()).mark
        let remembered = try XCTUnwrap(BreachCatalogDiff.remembered(mark: mark), mark)
        return BreachCatalogDiff(from: remembered, to: BreachCatalog(breaches: after, fetchedAt: Date()))
    }

    func kindsByAddress(_ d: BreachCatalogDiff) -> Set<AccountKind> { Set(AccountKind.allCases.filter { d.concernsByAddress($0) }) }
    func kindsByDomainOnly(_ d: BreachCatalogDiff) -> Set<AccountKind> { Set(AccountKind.allCases.filter { d.concernsByDomainSearchOnly($0) }) }

    func testTheSameCatalogConcernsNobody() throws {
        let d = try diff(Self.base, Self.base)
        XCTAssertEqual(d.changes, [])
        XCTAssertEqual(kindsByAddress(d), [])
        XCTAssertEqual(kindsByDomainOnly(d), [])
    }

    func testANewBreachConcernsOnlyTheKindsItsDataClassesCanHold() throws {
        var d = try diff(Self.base, Self.base + [Self.breach("Shop", classes: ["Email addresses", "Passwords"])])
        XCTAssertEqual(d.changes.map(\.name), ["Shop"])
        XCTAssertEqual(d.changes.first?.reason, .added)
        XCTAssertEqual(kindsByAddress(d), [.email])
        d = try diff(Self.base, Self.base + [Self.breach("Game", classes: ["Passwords", "Usernames"])])
        XCTAssertEqual(kindsByAddress(d), [.username], "no e-mail addresses in it: no address to ask for")
        d = try diff(Self.base, Self.base + [Self.breach("Mobile", classes: ["Phone numbers"])])
        XCTAssertEqual(kindsByAddress(d), [.phone])
        d = try diff(Self.base, Self.base + [Self.breach("Names", classes: ["Names", "Passwords"])])
        XCTAssertEqual(kindsByAddress(d), [], "nothing in it can be searched for")
        d = try diff(Self.base, Self.base + [Self.breach("All", classes: ["Email addresses", "Phone numbers", "Usernames"])])
        XCTAssertEqual(kindsByAddress(d), Set(AccountKind.allCases))
        d = try diff(Self.base, Self.base + [Self.breach("Truncated", classes: [])])
        XCTAssertEqual(kindsByAddress(d), Set(AccountKind.allCases), "no data class known: it can hold anything")
    }

    func testANewBreachWithAnOldAddedDateIsNewAllTheSame() throws {
        // Added with a date older than every other, and another removed: the count and latest dates stay.
        let d = try diff(Self.base, [Self.base[0], Self.base[1], Self.breach("Backdated", added: 1_000_000_000)])
        XCTAssertEqual(d.changes.map(\.name), ["Backdated"])
        XCTAssertEqual(kindsByAddress(d), [.email])
    }

    func testARemovedBreachConcernsNobody() throws {
        XCTAssertEqual(try diff(Self.base, Array(Self.base.dropLast())).changes, [])
    }

    func testANewSensitiveBreachConcernsOnlyAddressesADomainSearchAnswers() throws {
        let d = try diff(Self.base, Self.base + [Self.breach("Secret", sensitive: true)])
        XCTAssertEqual(kindsByAddress(d), [], "HIBP never returns a sensitive breach for one address")
        XCTAssertEqual(kindsByDomainOnly(d), [.email])
        // A sensitive breach of usernames: not even a domain search finds it.
        XCTAssertEqual(try diff(Self.base, Self.base + [Self.breach("S2", classes: ["Usernames"], sensitive: true)]).changes, [])
    }

    func testASensitiveBreachMadePublicConcernsItsKinds() throws {
        let before = Self.base + [Self.breach("Secret", sensitive: true)]
        let d = try diff(before, Self.base + [Self.breach("Secret", sensitive: false)])
        XCTAssertEqual(d.changes.map(\.reason), [.widened])
        XCTAssertEqual(kindsByAddress(d), [.email])
        // ... and the other way: a public breach made sensitive hides it, nobody to ask.
        XCTAssertEqual(try diff(Self.base + [Self.breach("Secret")], before).changes, [])
    }

    func testARetiredBreachConcernsNobodyAndARestoredOneDoes() throws {
        XCTAssertEqual(try diff(Self.base, Self.base + [Self.breach("Gone", retired: true)]).changes, [])
        XCTAssertEqual(try diff(Self.base, Self.base + [Self.breach("Gone", count: 99_999, sensitive: true, retired: true)]).changes, [])
        let retired = Self.base + [Self.breach("Gone", retired: true)]
        XCTAssertEqual(try diff(Self.base + [Self.breach("Gone")], retired).changes, [], "retiring hides it")
        XCTAssertEqual(kindsByAddress(try diff(retired, Self.base + [Self.breach("Gone")])), [.email], "restored")
    }

    func testASpamListIsLeftToTheFullCheckUntilItIsNoLongerOne() throws {
        XCTAssertEqual(try diff(Self.base, Self.base + [Self.breach("Spam", spam: true)]).changes, [])
        let spam = Self.base + [Self.breach("Spam", spam: true)]
        XCTAssertEqual(try diff(spam, Self.base + [Self.breach("Spam", count: 5_000, spam: true)]).changes, [], "a larger spam list")
        XCTAssertEqual(kindsByAddress(try diff(spam, Self.base + [Self.breach("Spam")])), [.email], "no longer a spam list")
    }

    func testAModificationWithoutALargerPwnCountConcernsNobody() throws {
        let modified = [Self.breach("Adobe", count: 152_445_165, verified: false, modified: 1_800_000_000,
                                    description: "Updated.")] + Self.base.dropFirst()
        XCTAssertEqual(try diff(Self.base, modified).changes, [], "IsVerified, the description and ModifiedDate changed")
        let smaller = [Self.breach("Adobe", count: 100, modified: 1_800_000_000)] + Self.base.dropFirst()
        XCTAssertEqual(try diff(Self.base, smaller).changes, [], "a smaller PwnCount")
        let fewerClasses = [Self.base[0], Self.breach("Forum", classes: ["Usernames"]), Self.base[2]]
        XCTAssertEqual(try diff(Self.base, fewerClasses).changes, [], "data classes narrowed")
    }

    func testALargerPwnCountConcernsEveryKindTheBreachHolds() throws {
        let grown = [Self.breach("Adobe", count: 152_445_166, modified: 1_800_000_000)] + Self.base.dropFirst()
        let d = try diff(Self.base, grown)
        XCTAssertEqual(d.changes.map(\.reason), [.grew])
        XCTAssertEqual(kindsByAddress(d), [.email])
        XCTAssertEqual(kindsByDomainOnly(d), [])
        let grownSensitive = try diff(Self.base + [Self.breach("Secret", sensitive: true)],
                                      Self.base + [Self.breach("Secret", count: 2_000, sensitive: true)])
        XCTAssertEqual(kindsByAddress(grownSensitive), [])
        XCTAssertEqual(kindsByDomainOnly(grownSensitive), [.email])
    }

    func testDataClassesWidenedLaterConcernOnlyTheNewKinds() throws {
        let widened = [Self.base[0], Self.base[1], Self.breach("Telco", classes: ["Email addresses", "Names", "Phone numbers"])]
        let d = try diff(Self.base, widened)
        XCTAssertEqual(d.changes.map(\.reason), [.widened])
        XCTAssertEqual(kindsByAddress(d), [.email], "phones could be found in it before")
        let sameKinds = [Self.base[0], Self.base[1], Self.breach("Telco", classes: ["Names", "Phone numbers", "Physical addresses"])]
        XCTAssertEqual(try diff(Self.base, sameKinds).changes, [], "a new data class that holds no account kind")
    }

    func testDataClassNamesAreReadWithoutRegardToCase() {
        XCTAssertEqual(BreachCatalogDiff.kinds(["email addresses", "USERNAMES", " Phone numbers "]), Set(AccountKind.allCases))
        XCTAssertEqual(BreachCatalogDiff.kinds(["Passwords"]), [])
    }

    func testTheMarkRemembersEveryBreachAndReadsBack() throws {
        let odd = Self.breach("We,ird;100%", count: 7, classes: ["Usernames", "Phone numbers"], sensitive: true, retired: true, spam: true)
        let catalog = BreachCatalog(breaches: Self.base + [odd], fetchedAt: Date())
        let mark = catalog.mark
        XCTAssertTrue(mark.hasPrefix("2;Adobe,152445165,e;"), mark)
        let back = try XCTUnwrap(BreachCatalogDiff.remembered(mark: mark))
        XCTAssertEqual(back, catalog.breaches.map(BreachCatalogDiff.Entry.init))
        XCTAssertEqual(back.last?.name, "We,ird;100%")
        XCTAssertEqual(BreachCatalogDiff.remembered(mark: BreachCatalog(breaches: [], fetchedAt: Date()).mark), [])
        // An earlier mark, a damaged one, none: not known (watch then checks every account).
        for bad in [nil, "834@2026-11-29T10:00:00.000Z", "2;Adobe,x,e", "2;Adobe,1,q", "2;Adobe,1", "2;%ZZ,1,e", "2;,1,e", "2;Adobe,-1,e"] {
            XCTAssertNil(BreachCatalogDiff.remembered(mark: bad), bad ?? "nil")
        }
        // Two states that differ only in what cannot concern anyone have the same mark.
        let edited = [Self.breach("Adobe", count: 152_445_165, verified: false, modified: 1_900_000_000, description: "x")]
            + Self.base.dropFirst()
        XCTAssertEqual(BreachCatalog(breaches: edited, fetchedAt: Date()).mark, BreachCatalog(breaches: Self.base, fetchedAt: Date()).mark)
    }
}

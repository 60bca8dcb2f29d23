import XCTest
@testable import PwnVaultCore

final class BreachDecodingTests: XCTestCase {
    /// Adobe as HIBP serves it (abridged description), with the JSON escapes HIBP uses.
    static let adobeJSON = #"""
    {"Name":"Adobe","Title":"Adobe","Domain":"adobe.com","BreachDate":"2013-10-04",
     "AddedDate":"2013-12-04T00:00:00Z","ModifiedDate":"2022-05-15T23:52:49Z","PwnCount":152445165,
     "Description":"In October 2013, 153 million Adobe accounts were breached \u003Ca href=\"https://krebsonsecurity.com/2013/10/adobe-to-announce-source-code-customer-data-breach/\" target=\"_blank\" rel=\"noopener\"\u003Eaccording to Krebs\u003C/a\u003E. &quot;Password hints&quot; were in the clear.",
     "LogoPath":"https://haveibeenpwned.com/Content/Images/PwnedLogos/Adobe.png",
     "DataClasses":["Email addresses","Password hints","Passwords","Usernames"],
     "IsVerified":true,"IsFabricated":false,"IsSensitive":false,"IsRetired":false,"IsSpamList":false,
     "IsMalware":false,"IsSubscriptionFree":false,"IsStealerLog":false,"Attribution":null}
    """#

    func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(json.utf8))
    }

    func testFullBreachDecodesEveryField() throws {
        let b = try decode(Breach.self, Self.adobeJSON)
        XCTAssertEqual(b.name, "Adobe")
        XCTAssertEqual(b.title, "Adobe")
        XCTAssertEqual(b.domain, "adobe.com")
        XCTAssertEqual(b.breachDate, BreachDay(year: 2013, month: 10, day: 4))
        XCTAssertEqual(b.addedDate, Date(timeIntervalSince1970: 1_386_115_200))          // 2013-12-04T00:00:00Z
        XCTAssertEqual(b.modifiedDate, Date(timeIntervalSince1970: 1_652_658_769))       // 2022-05-15T23:52:49Z
        XCTAssertEqual(b.pwnCount, 152_445_165)
        XCTAssertTrue(b.descriptionHTML.contains("<a href=\"https://krebsonsecurity.com/"), "\\u003C must decode to <")
        XCTAssertEqual(b.logoPath, "https://haveibeenpwned.com/Content/Images/PwnedLogos/Adobe.png")
        XCTAssertEqual(b.dataClasses, ["Email addresses", "Password hints", "Passwords", "Usernames"])
        XCTAssertTrue(b.isVerified)
        XCTAssertFalse(b.isFabricated || b.isSensitive || b.isRetired || b.isSpamList || b.isMalware
                       || b.isSubscriptionFree || b.isStealerLog)
        XCTAssertNil(b.attribution)
        XCTAssertNil(b.disclosureURL)
        XCTAssertTrue(b.hasDetails)
    }

    func testTruncatedAnswerGivesNamesOnly() throws {
        let list = try decode([Breach].self, #"[{"Name":"Adobe"},{"Name":"LinkedIn"}]"#)
        XCTAssertEqual(list.map(\.name), ["Adobe", "LinkedIn"])
        XCTAssertEqual(list[1].title, "LinkedIn", "a missing title falls back to the name")
        XCTAssertEqual(list[0].domain, "")
        XCTAssertNil(list[0].breachDate)
        XCTAssertEqual(list[0].pwnCount, 0)
        XCTAssertEqual(list[0].dataClasses, [])
        XCTAssertFalse(list[0].isVerified)
        XCTAssertFalse(list[0].hasDetails)
    }

    func testUnknownFieldsAndNewerFlagsAreTolerated() throws {
        let b = try decode(Breach.self, #"""
        {"Name":"X","IsStealerLog":true,"SomethingNew":{"nested":[1,2]},"Attribution":"Troy","DisclosureUrl":"https://x.example/post",
         "PwnCount":5000000000}
        """#)
        XCTAssertTrue(b.isStealerLog)
        XCTAssertFalse(b.isMalware, "a flag missing from older data reads as false")
        XCTAssertEqual(b.attribution, "Troy")
        XCTAssertEqual(b.disclosureURL, "https://x.example/post")
        XCTAssertEqual(b.pwnCount, 5_000_000_000, "counts above 2^31 must fit")
    }

    func testNullsReadAsDefaults() throws {
        let b = try decode(Breach.self, #"{"Name":"X","Title":null,"Domain":null,"IsVerified":null,"LogoPath":null,"DataClasses":null}"#)
        XCTAssertEqual(b.title, "X")
        XCTAssertEqual(b.domain, "")
        XCTAssertFalse(b.isVerified)
        XCTAssertNil(b.logoPath)
    }

    func testUnreadableDatesBecomeNilNotFailures() throws {
        let b = try decode(Breach.self, #"{"Name":"X","BreachDate":"sometime in 2013","AddedDate":"2013-13-45T99:00:00Z","ModifiedDate":""}"#)
        XCTAssertNil(b.breachDate)
        XCTAssertNil(b.addedDate)
        XCTAssertNil(b.modifiedDate)
    }

    func testWrongShapesThrow() {
        for body in [#"{"Title":"no name"}"#, #"{"Name":""}"#, #"{"Name":42}"#, #"{"Name":"X","PwnCount":"many"}"#,
                     #"{"Name":"X","IsVerified":"yes"}"#, #"{"Name":"X","DataClasses":"Passwords"}"#,
                     "[]", "\"Adobe\"", "null", "<html>Request Blocked</html>", ""] {
            XCTAssertThrowsError(try decode(Breach.self, body), body)
        }
        XCTAssertThrowsError(try decode([Breach].self, #"{"Name":"X"}"#))
    }

    func testTimestampsAreReadLeniently() {
        let base = 1_445_902_545.0                                                    // 2015-10-26T23:35:45Z
        XCTAssertEqual(HIBPTimestamp.parse("2015-10-26T23:35:45Z")?.timeIntervalSince1970, base)
        XCTAssertEqual(HIBPTimestamp.parse("2015-10-26T23:35:45")?.timeIntervalSince1970, base)
        XCTAssertEqual(HIBPTimestamp.parse("2015-10-26 23:35:45Z")?.timeIntervalSince1970, base)
        XCTAssertEqual(HIBPTimestamp.parse("2015-10-26T23:35:45.5Z")?.timeIntervalSince1970, base + 0.5)
        XCTAssertEqual(HIBPTimestamp.parse("2015-10-27T01:35:45+02:00")?.timeIntervalSince1970, base)
        XCTAssertEqual(HIBPTimestamp.parse("2015-10-26T20:35:45-0300")?.timeIntervalSince1970, base)
        XCTAssertEqual(HIBPTimestamp.parse("2015-10-26")?.timeIntervalSince1970, 1_445_817_600)
        XCTAssertEqual(HIBPTimestamp.parse("2016-02-29T00:00:00Z")?.timeIntervalSince1970, 1_456_704_000)
        for bad in ["2015-02-29T00:00:00Z", "2015-10-26T24:00:00Z", "2015-10-26T23:35:45Q", "26/10/2015", "2015-10-26T", "x"] {
            XCTAssertNil(HIBPTimestamp.parse(bad), bad)
        }
    }

    func testTimestampFormattingMatchesHIBP() {
        XCTAssertEqual(HIBPTimestamp.format(Date(timeIntervalSince1970: 1_445_902_545)), "2015-10-26T23:35:45Z")
        XCTAssertEqual(HIBPTimestamp.format(Date(timeIntervalSince1970: 0)), "1970-01-01T00:00:00Z")
        XCTAssertEqual(HIBPTimestamp.format(Date(timeIntervalSince1970: -1)), "1969-12-31T23:59:59Z")
    }

    func testBreachDay() {
        XCTAssertEqual(BreachDay(parsing: "2013-10-04")?.description, "2013-10-04")
        XCTAssertEqual(BreachDay(parsing: "2013-10-04T00:00:00Z"), BreachDay(year: 2013, month: 10, day: 4))
        XCTAssertNil(BreachDay(parsing: "2013-10-04x"))
        XCTAssertNil(BreachDay(parsing: "2013-02-30"))
        XCTAssertNil(BreachDay(year: 2013, month: 0, day: 1))
        XCTAssertEqual(BreachDay(parsing: "2000-02-29")?.startDate.timeIntervalSince1970, 951_782_400)
        XCTAssertLessThan(BreachDay(parsing: "2012-12-31")!, BreachDay(parsing: "2013-01-01")!)
        for days in [-800_000, -1, 0, 59, 10_957, 2_932_896] {
            XCTAssertEqual(BreachDay(daysSinceEpoch: days).daysSinceEpoch, days)
        }
    }

    func testEncodingRoundTripsThroughTheSameDecoder() throws {
        let b = try decode(Breach.self, Self.adobeJSON)
        let again = try JSONDecoder().decode(Breach.self, from: JSONEncoder().encode(b))
        XCTAssertEqual(again, b)
        let json = String(decoding: try JSONEncoder().encode(b), as: UTF8.self)
        XCTAssertTrue(json.contains(#""BreachDate":"2013-10-04""#))
        XCTAssertTrue(json.contains(#""AddedDate":"2013-12-04T00:00:00Z""#))
    }

    func testPaste() throws {
        let list = try decode([Paste].self, #"""
        [{"Source":"Pastebin","Id":"8Q0BvKD8","Title":"syslog","Date":"2014-03-04T19:14:54Z","EmailCount":139},
         {"Source":"AdHocUrl","Id":"http://example.com/x.txt","Title":null,"Date":null,"EmailCount":2}]
        """#)
        XCTAssertEqual(list[0], Paste(source: "Pastebin", id: "8Q0BvKD8", title: "syslog",
                                      date: Date(timeIntervalSince1970: 1_393_960_494), emailCount: 139))
        XCTAssertNil(list[1].title)
        XCTAssertNil(list[1].date)
        XCTAssertThrowsError(try decode(Paste.self, #"{"Id":"x"}"#))
    }

    func testSubscriptionStatus() throws {
        let s = try decode(SubscriptionStatus.self, #"""
        {"SubscriptionName":"Pwned 1","Description":"Up to 10 email addresses per minute","SubscribedUntil":"2025-01-01T00:00:00",
         "Rpm":10,"DomainSearchMaxBreachedAccounts":25,"IncludesStealerLogs":false}
        """#)
        XCTAssertEqual(s.rpm, 10)
        XCTAssertEqual(s.subscriptionName, "Pwned 1")
        XCTAssertEqual(s.domainSearchMaxBreachedAccounts, 25)
        XCTAssertEqual(s.subscribedUntil, Date(timeIntervalSince1970: 1_735_689_600))
        XCTAssertNil(try decode(SubscriptionStatus.self, #"{"Rpm":0}"#).rpm, "a nonsensical rate reads as unknown")
        XCTAssertThrowsError(try decode(SubscriptionStatus.self, #"{"Rpm":"fast"}"#))
    }
}

import XCTest
@testable import PwnVaultCore

/// vCard files written the way real exporters write them, one test per exporter or quirk.
final class VCardExporterTests: XCTestCase {
    /// The text with every line ending made CRLF, as most exporters write (RFC 6350 requires it).
    static func crlf(_ text: String) -> [UInt8] { Array(text.replacingOccurrences(of: "\n", with: "\r\n").utf8) }

    private func parse(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> [VCardContact] {
        do { return try VCardParser.parse(bytes) } catch {
            XCTFail("refused: \(error)", file: file, line: line)
            return []
        }
    }

    private func emails(_ c: VCardContact) -> [String] { c.emails.map(\.value) }

    // MARK: GNOME Contacts and Evolution (3.0)

    static let evolution = #"""
    BEGIN:VCARD
    VERSION:3.0
    UID:pas-id-5F1B2C3D00000001
    X-EVOLUTION-FILE-AS:Lefèvre\, Marie-Hélène
    FN:Marie-Hélène Lefèvre
    N:Lefèvre;Marie-Hélène;;;
    EMAIL;X-EVOLUTION-UI-SLOT=1;TYPE=HOME:marie.lefevre@example.fr
    EMAIL;X-EVOLUTION-UI-SLOT=2;TYPE=WORK:m.lefevre@atelier-lefevre-et-fils.
     example.com
    TEL;X-EVOLUTION-UI-SLOT=1;TYPE=CELL:+33 6 12 34 56 78
    NOTE:Tante de Paul\, appeler le dimanche\nAdresse : 3 rue des Lilas\; Lyon
      (2e étage)
    X-EVOLUTION-BLOG-URL:https://blog.example.fr/marie
    REV:2024-03-01T10:00:00Z
    END:VCARD
    BEGIN:VCARD
    VERSION:3.0
    FN:Paul Martin
    N:Martin;Paul;;;
    EMAIL;TYPE=INTERNET,HOME:paul.martin@example.org
    EMAIL;TYPE=INTERNET,WORK:pmartin@example.com
    END:VCARD

    """#

    func testEvolutionAndGnomeContactsWithFoldedLinesAndEscapes() {
        let cards = parse(Self.crlf(Self.evolution))
        XCTAssertEqual(cards.count, 2)
        XCTAssertEqual(cards[0].version, .v3_0)
        XCTAssertEqual(cards[0].name, "Marie-Hélène Lefèvre")
        XCTAssertEqual(emails(cards[0]), ["marie.lefevre@example.fr", "m.lefevre@atelier-lefevre-et-fils.example.com"])
        XCTAssertEqual(cards[0].emails.map(\.line), [7, 8], "a folded property is on the line it starts on")
        XCTAssertEqual(cards[0].phones.map(\.value), ["+33 6 12 34 56 78"])
        XCTAssertEqual(cards[0].line, 1)
        XCTAssertEqual(cards[1].line, 16)
        XCTAssertEqual(cards[1].name, "Paul Martin")
        XCTAssertEqual(emails(cards[1]), ["paul.martin@example.org", "pmartin@example.com"])
    }

    func testTheSameFileWithLFLineEndsReadsTheSame() {
        XCTAssertEqual(parse(Array(Self.evolution.utf8)), parse(Self.crlf(Self.evolution)))
    }

    func testOldMacCRLineEndsReadTheSame() {
        XCTAssertEqual(parse(Array(Self.evolution.replacingOccurrences(of: "\n", with: "\r").utf8)), parse(Self.crlf(Self.evolution)))
    }

    // MARK: Google Contacts (3.0)

    static let google = #"""
    BEGIN:VCARD
    VERSION:3.0
    FN:Dad
    N:;Dad;;;
    item1.EMAIL;TYPE=INTERNET:robert.smith.1956@example.com
    item1.X-ABLabel:Old
    EMAIL;TYPE=INTERNET;TYPE=HOME:bob.smith@example.net
    TEL;TYPE=CELL:+44 7700 900123
    item2.URL:http\://www.example.net
    item2.X-ABLabel:_$!<HomePage>!$_
    CATEGORIES:myContacts,Family
    END:VCARD
    BEGIN:VCARD
    VERSION:3.0
    FN:
    N:;;;;
    ORG:Riverside Surgery;
    EMAIL;TYPE=INTERNET;TYPE=WORK:reception@riverside-surgery.example.co.uk
    CATEGORIES:myContacts
    END:VCARD

    """#

    func testGoogleContactsGroupedPropertiesAndEmptyNamesFallBackToORG() {
        let cards = parse(Self.crlf(Self.google))
        XCTAssertEqual(cards.count, 2)
        XCTAssertEqual(cards[0].name, "Dad")
        XCTAssertEqual(emails(cards[0]), ["robert.smith.1956@example.com", "bob.smith@example.net"])
        XCTAssertNil(cards[1].formattedName, "an empty FN is no name")
        XCTAssertNil(cards[1].structuredName, "an N of empty parts is no name")
        XCTAssertEqual(cards[1].name, "Riverside Surgery")
        XCTAssertEqual(emails(cards[1]), ["reception@riverside-surgery.example.co.uk"])
    }

    // MARK: Apple Contacts (3.0)

    static let photo = "pU3KGCUwux1tEyze1iN7LtkeP3IfyxlxF0SU1kk8nVw0YL4xIB5p/tqg7ui5mX9cfCmZ/a/lkyU81lSvTfrXFCegrrP+6SMvivIhH57kkcWxC+y1Vjv8Hm+TQn7LyP4pVeXNjkbcjtS3wnZNKlpNdncG+F2GkAJK1r2jQBvpyMvMyTX2zR9hImrhUziuGjQATTO6DSRqwEyBsbryPjv57vX3nytJNK+H9VILablLDZguhbtVtnKocmN6zXRm/LYODo/xhGOw5LK6KXA0dPBkrGj3APWwKz3GZvRb3qosyu3NK1FXQQ5N7krys09DCgc0"

    /// Apple writes PHOTO as base64 folded over many lines, each continuation starting with a space.
    static var apple: String {
        var folded = "PHOTO;ENCODING=b;TYPE=JPEG:"
        var rest = Substring(photo)
        folded += rest.prefix(48); rest = rest.dropFirst(48)
        while !rest.isEmpty { folded += "\n " + rest.prefix(74); rest = rest.dropFirst(74) }
        return #"""
        BEGIN:VCARD
        VERSION:3.0
        PRODID:-//Apple Inc.//macOS 14.4//EN
        N:Appleseed;Johnny;Q.;Dr.;Jr.
        FN:Dr. Johnny Q. Appleseed Jr.
        ORG:Apple Seeds\, Inc.;Orchards
        item1.EMAIL;type=INTERNET;type=pref:johnny@example.com
        item1.X-ABLabel:_$!<Other>!$_
        item2.EMAIL;type=INTERNET:j.appleseed@icloud.example
        TEL;type=CELL;type=VOICE;type=pref:(408) 555-0123
        """# + "\n" + folded + "\n" + #"""
        X-ABUID:0A1B2C3D-4E5F-6789-ABCD-EF0123456789:ABPerson
        END:VCARD
        BEGIN:VCARD
        VERSION:3.0
        PRODID:-//Apple Inc.//macOS 14.4//EN
        N:;;;;
        FN:Green Grocer\, Ltd
        ORG:Green Grocer\, Ltd;
        X-ABShowAs:COMPANY
        item1.EMAIL;type=INTERNET;type=WORK;type=pref:orders@greengrocer.example
        END:VCARD

        """#
    }

    func testAppleContactsWithAPhotoFoldedOverManyLines() {
        let cards = parse(Self.crlf(Self.apple))
        XCTAssertEqual(cards.count, 2)
        XCTAssertEqual(cards[0].name, "Dr. Johnny Q. Appleseed Jr.")
        XCTAssertEqual(cards[0].structuredName, "Dr. Johnny Q. Appleseed Jr.", "N is read in reading order")
        XCTAssertEqual(cards[0].organization, "Apple Seeds, Inc.")
        XCTAssertEqual(emails(cards[0]), ["johnny@example.com", "j.appleseed@icloud.example"])
        XCTAssertEqual(cards[0].phones.map(\.value), ["(408) 555-0123"])
        XCTAssertEqual(cards[1].name, "Green Grocer, Ltd")
        XCTAssertEqual(emails(cards[1]), ["orders@greengrocer.example"])
        XCTAssertEqual(cards[1].emails.first?.line, 25, "lines are counted over the folded photo")
    }

    // MARK: Thunderbird (4.0)

    static let thunderbird = #"""
    BEGIN:VCARD
    VERSION:4.0
    PRODID:-//Mozilla.org//NONSGML Mozilla Thunderbird//EN
    UID:7e1c3a4b-2d5f-4e6a-9b8c-0d1e2f3a4b5c
    FN:Kenji Tanaka
    FN;ALTID=1;LANGUAGE=ja;PREF=1:田中 健二
    N:Tanaka;Kenji;;;
    EMAIL;PREF=1:kenji@example.jp
    EMAIL;TYPE="work,internet":k.tanaka@example.co.jp
    NICKNAME:Ken
    NOTE;VALUE=text:met at FOSDEM\; likes ramen
    TEL;VALUE=uri;TYPE=cell:tel:+81-90-1234-5678
    END:VCARD
    BEGIN:VCARD
    VERSION:4.0
    N:Okafor;Chiamaka;;;
    EMAIL;VALUE=text:chiamaka.okafor@example.ng
    END:VCARD

    """#

    func testThunderbirdVCard4WithPreferencesQuotedParametersAndURIs() {
        let cards = parse(Array(Self.thunderbird.utf8))
        XCTAssertEqual(cards.count, 2)
        XCTAssertEqual(cards[0].version, .v4_0)
        XCTAssertEqual(cards[0].name, "田中 健二", "the FN with PREF=1 wins")
        XCTAssertEqual(emails(cards[0]), ["kenji@example.jp", "k.tanaka@example.co.jp"])
        XCTAssertEqual(cards[0].phones.map(\.value), ["+81-90-1234-5678"], "the tel: scheme is dropped")
        XCTAssertNil(cards[1].formattedName)
        XCTAssertEqual(cards[1].name, "Chiamaka Okafor", "no FN: N in reading order")
        XCTAssertEqual(emails(cards[1]), ["chiamaka.okafor@example.ng"])
    }

    // MARK: Outlook and old phones (2.1)

    static let nokia = """
    BEGIN:VCARD
    VERSION:2.1
    N;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:=D0=98=D0=B2=D0=B0=D0=BD=D0=BE=D0=B2;=D0=98=D0=B2=D0=B0=D0=BD;;;
    FN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:=D0=98=D0=B2=D0=B0=D0=BD =D0=98=D0=B2=D0=B0=D0=BD=
    =D0=BE=D0=B2
    TEL;CELL:+79161234567
    EMAIL;INTERNET:ivan.ivanov@example.ru
    NOTE;ENCODING=QUOTED-PRINTABLE:Line one=0D=0A=
    line two=0D=0A=
    line three
    END:VCARD
    BEGIN:VCARD
    VERSION:2.1
    N;ENCODING=QUOTED-PRINTABLE;CHARSET=ISO-8859-1:Fran=E7ois;Ren=E9;;;
    FN;ENCODING=QUOTED-PRINTABLE;CHARSET=ISO-8859-1:Ren=E9 Fran=E7ois
    EMAIL;PREF;INTERNET:rene.francois@example.fr
    EMAIL;INTERNET:rene@example.be
    X-MS-OL-DEFAULT-POSTAL-ADDRESS:0
    END:VCARD

    """

    func testNokiaAndOutlookQuotedPrintableWithSoftLineBreaksAndCharsets() {
        let cards = parse(Self.crlf(Self.nokia))
        XCTAssertEqual(cards.count, 2)
        XCTAssertEqual(cards[0].version, .v2_1)
        XCTAssertEqual(cards[0].name, "Иван Иванов", "a soft line break in the middle of a name")
        XCTAssertEqual(cards[0].structuredName, "Иван Иванов")
        XCTAssertEqual(emails(cards[0]), ["ivan.ivanov@example.ru"])
        XCTAssertEqual(cards[0].emails.first?.line, 7, "lines joined by soft breaks still count")
        XCTAssertEqual(cards[1].name, "René François")
        XCTAssertEqual(emails(cards[1]), ["rene.francois@example.fr", "rene@example.be"])
    }

    func testOutlook21WithRawLatin1AndWindows1252WithoutCharset() {
        let bytes = Self.crlf("BEGIN:VCARD\nVERSION:2.1\n") + Array("FN;CHARSET=ISO-8859-1:Jos".utf8) + [0xE9, 0x20, 0x4E, 0xFA, 0xF1, 0x65, 0x7A]
            + Self.crlf("\nEMAIL;INTERNET:jose@example.es\nEND:VCARD\nBEGIN:VCARD\nVERSION:2.1\n")
            + Array("FN:".utf8) + [0x8E] + Array("enek ".utf8) + [0x80] + Self.crlf("\nEMAIL:zenek@example.pl\nEND:VCARD\n")
        let cards = parse(bytes)
        XCTAssertEqual(cards.map(\.name), ["José Núñez", "Ženek €"])
    }

    func testAnOutlookPhotoEndingInABlankLine() {
        let text = """
        BEGIN:VCARD
        VERSION:2.1
        N:Doe;John
        FN:John Doe
        PHOTO;TYPE=JPEG;ENCODING=BASE64:
            \(Self.photo.prefix(76))
            \(Self.photo.dropFirst(76).prefix(76))

        EMAIL;PREF;INTERNET:john.doe@example.com
        END:VCARD

        """
        let cards = parse(Self.crlf(text))
        XCTAssertEqual(cards.first.map(emails), ["john.doe@example.com"])
    }

    // MARK: byte-order marks, escapes, several files in one

    func testAUTF8ByteOrderMarkAndFilesJoinedWithCat() {
        let one = [0xEF, 0xBB, 0xBF] + Self.crlf(Self.google)
        let two = [0xEF, 0xBB, 0xBF] + Array(Self.thunderbird.utf8)
        let cards = parse(one + two)
        XCTAssertEqual(cards.count, 4)
        XCTAssertEqual(cards.map(\.name), ["Dad", "Riverside Surgery", "田中 健二", "Chiamaka Okafor"])
    }

    func testUTF16WithAByteOrderMark() {
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in Self.google.replacingOccurrences(of: "\n", with: "\r\n").utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        XCTAssertEqual(parse(bytes), parse(Self.crlf(Self.google)))
    }

    func testEscapedCommasSemicolonsBackslashesAndNewlinesInNames() {
        let cards = parse(Self.crlf(#"""
        BEGIN:VCARD
        VERSION:3.0
        FN:Smith\, John \; the \\ builder\nline two
        N:Smith\, Jr.;John,Jack;;;
        ORG:Acme\; Inc;Sales
        EMAIL:john@example.com
        END:VCARD

        """#))
        XCTAssertEqual(cards.first?.formattedName, "Smith, John ; the \\ builder\nline two")
        XCTAssertEqual(cards.first?.structuredName, "John Jack Smith, Jr.")
        XCTAssertEqual(cards.first?.organization, "Acme; Inc")
    }

    func testBlankLinesBetweenCardsLowerCaseKeywordsAndMailtoAreAccepted() {
        let cards = parse(Self.crlf("""

        begin:vcard
        version:3.0
        fn:Lower Case
        email;type=internet:mailto:lower@example.com
        email:
        end:vcard


        BEGIN:VCARD
        END:VCARD

        """))
        XCTAssertEqual(cards.count, 2)
        XCTAssertEqual(cards[0].name, "Lower Case")
        XCTAssertEqual(emails(cards[0]), ["lower@example.com"], "mailto: is dropped, an empty EMAIL is no address")
        XCTAssertNil(cards[1].version)
        XCTAssertNil(cards[1].name)
        XCTAssertEqual(cards[1].emails, [])
    }
}

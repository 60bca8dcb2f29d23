import XCTest
import TestSupport
@testable import PwnVaultCore

/// Contacts exported in the character sets address books and phones write (Tests/Fixtures/vcard,
/// made byte for byte by make-fixtures.py with Python's codecs), read through glibc's iconv.
final class VCardCharsetTests: XCTestCase {
    static func fixture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: PackageRoot.url.appendingPathComponent("Tests/Fixtures/vcard/\(name)")))
    }

    private func read(_ name: String, locale: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> VCardReading {
        let r = try VCardParser.read(try Self.fixture(name), locale: locale)
        XCTAssertEqual(r.skippedLines, [], name, file: file, line: line)
        XCTAssertEqual(r.skippedContacts, [], name, file: file, line: line)
        return r
    }

    /// Every CHARSET as an exporter spells it: the name the card shows and its address.
    func testEveryCharsetAVCardCanNameIsRead() throws {
        let expected: [(String, String, String)] = [
            ("outlook-windows-1252", "José Müller", "jose.mueller@example.com"),
            ("cp1252", "Zoë Ærø", "zoe@example.com"),
            ("windows-1250", "Łukasz Żółć", "lukasz@example.pl"),
            ("windows-1251", "Иван Петров", "ivan.petrov@example.ru"),
            ("windows-1253", "Γιώργος Παπαδόπουλος", "giorgos@example.gr"),
            ("windows-1254", "Ayşe Yılmaz", "ayse@example.com.tr"),
            ("windows-1255", "דוד לוי", "david.levi@example.co.il"),
            ("windows-1256", "محمد علي", "mohamed@example.eg"),
            ("windows-1257", "Jānis Bērziņš", "janis@example.lv"),
            ("windows-1258", "Đoàn Văn Hà", "binh@example.vn"),
            ("iso-8859-1", "François Lefèvre", "francois@example.fr"),
            ("iso-8859-2", "Łukasz Żółć", "lukasz.zolc@example.pl"),
            ("iso-8859-5", "Иван Петров", "ivan@example.bg"),
            ("iso-8859-7", "Γιώργος Νικολάου", "nikolaou@example.gr"),
            ("iso-8859-9", "Ayşe Yıldız", "yildiz@example.com.tr"),
            ("iso-8859-15", "Œdipe Sévère €", "oedipe@example.fr"),
            ("koi8-r", "Наталья Смирнова", "natalia@example.ru"),
            ("koi8-u", "Тарас Їжак", "taras@example.ua"),
            ("shift-jis", "山田太郎", "yamada@example.jp"),
            ("x-sjis", "田中花子", "tanaka@example.jp"),
            ("sjis", "高橋一郎", "takahashi@example.jp"),
            ("euc-jp", "佐藤花子", "sato@example.jp"),
            ("iso-2022-jp", "鈴木一郎", "suzuki@example.jp"),
            ("gb2312", "王小明", "wang@example.cn"),
            ("gbk", "张伟", "zhang.wei@example.cn"),
            ("gb18030", "李娜𠀀", "li.na@example.cn"),
            ("big5", "陳大文", "chan@example.hk"),
            ("euc-kr", "김민준", "minjun@example.kr"),
            ("utf-16", "Ελένη Öztürk", "eleni@example.gr"),
            ("utf-32", "Ярослава Ünal", "yaroslava@example.ua"),
            ("utf8-alias", "Søren Kierkegård", "soren@example.dk"),
        ]
        for (file, name, address) in expected {
            let r = try read("charset-\(file).vcf")
            XCTAssertEqual(r.contacts.map(\.name), [name], file)
            XCTAssertEqual(r.contacts.first?.emails.map(\.value), [address], file)
            XCTAssertNil(r.codePage, file)
            let plan = ContactImportPlan(contacts: r.contacts, includePhones: false, maxLabelLength: 64)
            XCTAssertEqual(plan.contacts.first?.label?.text, name, file)
        }
    }

    func testExportersSpellingsOfCharsetsAreKnown() {
        for (spelled, name) in [("windows-1252", "WINDOWS-1252"), ("CP1252", "CP1252"), ("ISO_8859-1", "ISO_8859-1"),
                                ("SJIS", "SJIS"), ("x-sjis", "SHIFT_JIS"), ("UTF8", "UTF-8"), ("utf-8", "UTF-8"),
                                ("ks_c_5601-1987", "CP949"), ("x-mac-roman", "MACINTOSH"), ("US-ASCII", "UTF-8")] {
            XCTAssertEqual(CharsetDecoder.canonicalName(spelled), name, spelled)
        }
        for unknown in ["X-UNHEARD-OF", "UTF-8//TRANSLIT", "", "../../etc", String(repeating: "A", count: 200)] {
            XCTAssertNil(CharsetDecoder.canonicalName(unknown), unknown)
        }
    }

    func testOutlooks8BitTextWithoutCharsetIsWindows1252AndSaysSo() throws {
        let r = try read("v21-8bit-windows-1252.vcf")
        XCTAssertEqual(r.contacts.first?.name, "José Müller")
        XCTAssertEqual(r.contacts.first?.structuredName, "José Müller")
        XCTAssertEqual(r.codePage, VCardReading.CodePage(charset: "WINDOWS-1252", fromLocale: false, lines: [3, 4]))
        XCTAssertEqual(r.codePage?.text,
                       "text without a CHARSET that is not UTF-8 (lines 3, 4) was read as WINDOWS-1252, what Outlook writes (your locale names no code page)")
    }

    func testA2_1FileWithoutCharsetIsReadInTheLocalesCodePage() throws {
        // ru_RU.KOI8-R need not be installed: the code page is then read from the locale's name.
        let r = try read("v21-8bit-koi8-r.vcf", locale: "ru_RU.KOI8-R")
        XCTAssertEqual(r.contacts.first?.name, "Наталья Смирнова")
        XCTAssertEqual(r.contacts.first?.emails.map(\.value), ["natalia@example.ru"])
        XCTAssertEqual(r.codePage?.charset, "KOI8-R")
        XCTAssertEqual(r.codePage?.fromLocale, true)
        // This machine's locales are ASCII ("ANSI_X3.4-1968") or UTF-8: no code page, so Windows-1252.
        for locale in [nil, "C", "POSIX", "C.UTF-8", "en_US.UTF-8", "de_DE.utf8"] {
            XCTAssertNil(CharsetDecoder.codePage(ofLocale: locale), locale ?? "nil")
            XCTAssertEqual(try read("v21-8bit-koi8-r.vcf", locale: locale).codePage?.charset, "WINDOWS-1252")
        }
    }

    func testValidUTF8WithoutCharsetStaysUTF8() throws {
        let r = try read("v21-8bit-utf-8.vcf", locale: "ru_RU.KOI8-R")
        XCTAssertEqual(r.contacts.first?.name, "Zoë Ærø")
        XCTAssertNil(r.codePage)
    }

    func testAWholeFileInUTF32() throws {
        let r = try read("utf-32-file.vcf")
        XCTAssertEqual(r.contacts.first?.name, "Ярослава")
        XCTAssertEqual(r.contacts.first?.emails.map(\.value), ["yaroslava@example.ua"])
    }

    func testAnUnknownCharsetSkipsThatPropertyNotTheContact() throws {
        let r = try VCardParser.read(try Self.fixture("charset-unknown.vcf"), locale: nil)
        XCTAssertEqual(r.skippedLines, [VCardSkip(.unsupportedCharset(line: 3), line: 3)])
        XCTAssertEqual(r.skippedLines.first?.message, "line 3: a CHARSET this reader does not know")
        XCTAssertEqual(r.contacts.first?.name, "Alice Liddell")
        XCTAssertEqual(r.contacts.first?.emails.map(\.value), ["alice@example.com"])
    }
}

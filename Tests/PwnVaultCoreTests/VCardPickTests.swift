import XCTest
@testable import PwnVaultCore

/// The `import --pick` answer and conversation, without a terminal (the end-to-end tests use a real one).
final class VCardPickTests: XCTestCase {
    private func choices(_ answer: String, _ counts: [Int], file: StaticString = #filePath, line: UInt = #line) -> [String] {
        do {
            let s = try ContactPickSelection.parse(answer, addressCounts: counts)
            return s.choices.map { "\($0.contact + 1)\(ContactPickSelection.letter($0.address)!)" }.sorted()
        } catch {
            XCTFail("\(answer.debugDescription) refused: \(error)", file: file, line: line)
            return []
        }
    }

    private func refusal(_ answer: String, _ counts: [Int]) -> ContactPickError? {
        do {
            _ = try ContactPickSelection.parse(answer, addressCounts: counts)
            XCTFail("\(answer.debugDescription) accepted")
        } catch let e as ContactPickError { return e } catch { XCTFail("\(error)") }
        return nil
    }

    func testNumbersRangesLettersAllAndNone() {
        let counts = [1, 2, 1, 3, 1]
        XCTAssertEqual(choices("", counts), [])
        XCTAssertEqual(choices("  none ", counts), [])
        XCTAssertEqual(choices("1", counts), ["1a"])
        XCTAssertEqual(choices("2", counts), ["2a", "2b"])
        XCTAssertEqual(choices("1 3-4", counts), ["1a", "3a", "4a", "4b", "4c"])
        XCTAssertEqual(choices("4c,2B", counts), ["2b", "4c"])
        XCTAssertEqual(choices("ALL", counts).count, 8)
        XCTAssertEqual(choices("1 1 1a", counts), ["1a"], "repeats count once")
        XCTAssertEqual(choices("5-5", counts), ["5a"])
    }

    func testAnswersThatCannotBeReadSayWhichEntry() {
        let counts = [1, 2]
        XCTAssertEqual(refusal("1 x", counts), .notUnderstood(entry: 2))
        XCTAssertEqual(refusal("1-", counts), .notUnderstood(entry: 1))
        XCTAssertEqual(refusal("2bb", counts), .notUnderstood(entry: 1))
        XCTAssertEqual(refusal("-1", counts), .notUnderstood(entry: 1))
        XCTAssertEqual(refusal("99999999999999999999999", counts), .notUnderstood(entry: 1))
        XCTAssertEqual(refusal("3", counts), .noSuchContact(number: 3, count: 2))
        XCTAssertEqual(refusal("0", counts), .noSuchContact(number: 0, count: 2))
        XCTAssertEqual(refusal("1-3", counts), .noSuchContact(number: 3, count: 2))
        XCTAssertEqual(refusal("2c", counts), .noSuchAddress(contact: 2, letter: "c"))
        XCTAssertEqual(refusal("2-1", counts), .backwardRange(from: 2, to: 1))
        XCTAssertEqual(refusal("1", []), .noSuchContact(number: 1, count: 0))
        XCTAssertEqual(refusal("1a", []), .noSuchContact(number: 1, count: 0))
    }

    func testLetters() {
        XCTAssertEqual(ContactPickSelection.letter(0), "a")
        XCTAssertEqual(ContactPickSelection.letter(25), "z")
        XCTAssertNil(ContactPickSelection.letter(26))
    }

    // MARK: the conversation

    private let sample = """
    BEGIN:VCARD
    FN:Alice Doe
    EMAIL:alice@example.com
    EMAIL:alice.work@example.org
    END:VCARD
    BEGIN:VCARD
    EMAIL:bob@example.net
    END:VCARD
    """

    private func conversation(_ answers: [String?], inVault: [String: Int] = [:], shareMode: Bool = false, columns: Int? = nil)
        throws -> (ContactPickSelection?, String) {
        let plan = ContactImportPlan(contacts: try VCardParser.parse(VCardExporterTests.crlf(sample)), includePhones: false,
                                     maxLabelLength: 64)
        var screen = ""
        var queue = answers
        let picker = ContactPicker(write: { screen += $0 }, readLine: { queue.isEmpty ? nil : queue.removeFirst() },
                                   columns: { columns })
        return (picker.pick(plan, source: "family.vcf", inVault: Dictionary(uniqueKeysWithValues: inVault.map { (AccountKey($0.key), $0.value) }), shareMode: shareMode), screen)
    }

    func testTheListIsMaskedNumberedAndLetteredAndAsksAgainUntilUnderstood() throws {
        let (selection, screen) = try conversation(["3", "1b 2"], inVault: ["alice@example.com": 7])
        XCTAssertEqual(selection?.choices, [.init(contact: 0, address: 1), .init(contact: 1, address: 0)])
        let lines = screen.components(separatedBy: "\n")
        XCTAssertEqual(lines[0], "2 contacts with addresses in family.vcf:")
        XCTAssertEqual(lines[1], "  1  Alice Doe")
        XCTAssertEqual(lines[2], "       a  a•••e@e•••.com  (already in the vault as #7)")
        XCTAssertEqual(lines[3], "       b  a•••k@e•••.org")
        XCTAssertEqual(lines[4], "  2  (no name)")
        XCTAssertEqual(lines[5], "          b•••@e•••.net")
        XCTAssertEqual(screen.components(separatedBy: ContactPicker.question).count - 1, 2, "asked twice")
        XCTAssertTrue(screen.contains("there is no contact 3 (the list goes from 1 to 2)"), screen)
        for fragment in ["alice", "example", "bob"] { XCTAssertFalse(screen.contains(fragment), screen) }
    }

    func testShareModeShowsNamesAndKindsButNoMask() throws {
        let (_, screen) = try conversation([""], shareMode: true)
        XCTAssertTrue(screen.contains("(share mode: names only)"), screen)
        XCTAssertTrue(screen.contains("a  e-mail address"), screen)
        XCTAssertFalse(screen.contains("•"), screen)
    }

    func testTheListFitsTheTerminalsWidthInCells() throws {
        let (_, screen) = try conversation([""], inVault: ["alice@example.com": 7], columns: 30)
        let list = screen.components(separatedBy: ContactPicker.question)[0].split(separator: "\n")
        XCTAssertEqual(list[2], "       a  a•••e@e•••.com  (al…", "cut at 30 cells, with an ellipsis")
        for line in list { XCTAssertLessThanOrEqual(TerminalCells.width(line), 30, String(line)) }
    }

    func testTheEndOfInputCancels() throws {
        let (selection, _) = try conversation([nil])
        XCTAssertNil(selection)
        let (empty, _) = try conversation([""])
        XCTAssertEqual(empty?.choices, [])
    }
}

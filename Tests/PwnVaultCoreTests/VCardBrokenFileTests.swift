import XCTest
@testable import PwnVaultCore

/// Files that are not well-formed vCards: each is refused with the line of the problem, and the
/// message never carries what the file holds.
final class VCardBrokenFileTests: XCTestCase {
    private func refusal(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> VCardError? {
        do {
            let cards = try VCardParser.parse(bytes)
            XCTFail("accepted \(cards.count) contacts", file: file, line: line)
        } catch let e as VCardError {
            for secret in ["alice", "example", "Alice"] {
                XCTAssertFalse(e.message.contains(secret) || (e.hint ?? "").contains(secret), "'\(secret)' in \(e.message)",
                               file: file, line: line)
            }
            XCTAssertEqual(e.exitStatus, .usage, file: file, line: line)
            return e
        } catch {
            XCTFail("unexpected \(error)", file: file, line: line)
        }
        return nil
    }

    private func refusal(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> VCardError? {
        refusal(VCardExporterTests.crlf(text), file: file, line: line)
    }

    func testBeginWithoutEndNamesTheBeginLine() {
        let e = refusal("BEGIN:VCARD\nVERSION:3.0\nFN:Alice\nEND:VCARD\nBEGIN:VCARD\nVERSION:3.0\nFN:Alice\nEMAIL:alice@example.com\n")
        XCTAssertEqual(e, .missingEnd(line: 5))
        XCTAssertEqual(e?.line, 5)
        XCTAssertTrue(e?.message.hasPrefix("line 5: ") == true, e?.message ?? "")
    }

    func testEndWithoutBegin() {
        XCTAssertEqual(refusal("BEGIN:VCARD\nFN:Alice\nEND:VCARD\nEND:VCARD\n"), .endWithoutBegin(line: 4))
    }

    func testAPropertyLineWithoutAColon() {
        XCTAssertEqual(refusal("BEGIN:VCARD\nVERSION:3.0\nFN:Alice\nEMAIL alice@example.com\nEND:VCARD\n"), .missingColon(line: 4))
    }

    func testANestedBeginNamesBothLines() {
        let e = refusal("BEGIN:VCARD\nVERSION:2.1\nFN:Alice\nAGENT:\nBEGIN:VCARD\nFN:Bob\nEND:VCARD\nEND:VCARD\n")
        XCTAssertEqual(e, .nestedBegin(line: 5, outer: 1))
        XCTAssertTrue(e?.message.contains("line 1") == true, e?.message ?? "")
    }

    func testBinaryGarbage() {
        // A PNG header: not text at all.
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52]
        XCTAssertNotNil(refusal(png)?.line)
        // Reproducible noise, many times over: never accepted, never a crash, always a line.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<200 {
            var noise: [UInt8] = []
            for _ in 0..<512 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                noise.append(UInt8(truncatingIfNeeded: state >> 56))
            }
            guard let e = refusal(noise) else { return }
            XCTAssertNotNil(e.line)
        }
    }

    func testNoiseInsideAValidCardIsRefusedToo() {
        let bytes = VCardExporterTests.crlf("BEGIN:VCARD\nVERSION:3.0\nFN:Alice\n") + [0xC3, 0x28, 0x00, 0x7F, 0x3A]
            + VCardExporterTests.crlf("\nEND:VCARD\n")
        XCTAssertEqual(refusal(bytes), .binary(line: 4))
    }

    func testATruncatedQuotedPrintableSequence() {
        XCTAssertEqual(refusal("BEGIN:VCARD\nVERSION:2.1\nFN;ENCODING=QUOTED-PRINTABLE:Alice=4\nEND:VCARD\n"),
                       .invalidQuotedPrintable(line: 3))
        XCTAssertEqual(refusal("BEGIN:VCARD\nVERSION:2.1\nFN;QUOTED-PRINTABLE:Al=ZZice\nEND:VCARD\n"),
                       .invalidQuotedPrintable(line: 3))
    }

    func testASoftLineBreakThatNothingContinues() {
        XCTAssertEqual(refusal("BEGIN:VCARD\nVERSION:2.1\nNOTE;ENCODING=QUOTED-PRINTABLE:Alice=\nEND:VCARD\n"),
                       .invalidQuotedPrintable(line: 3))
        XCTAssertEqual(refusal("BEGIN:VCARD\nVERSION:2.1\nNOTE;ENCODING=QUOTED-PRINTABLE:Alice="),
                       .invalidQuotedPrintable(line: 3))
    }

    func testBrokenQuotedPrintableIsRefusedInPropertiesPwnvaultDoesNotUse() {
        XCTAssertEqual(refusal("BEGIN:VCARD\nFN:Alice\nNOTE;ENCODING=QUOTED-PRINTABLE:caf=E\nEND:VCARD\n"),
                       .invalidQuotedPrintable(line: 3))
    }

    func testBrokenBase64() {
        XCTAssertEqual(refusal("BEGIN:VCARD\nFN:Alice\nPHOTO;ENCODING=b;TYPE=JPEG:*not base64*\nEND:VCARD\n"),
                       .invalidBase64(line: 3))
    }

    func testTextOutsideACard() {
        XCTAssertEqual(refusal("Alice <alice@example.com>\n"), .outsideCard(line: 1))
        XCTAssertEqual(refusal("BEGIN:VCARD\nFN:Alice\nEND:VCARD\nEMAIL:alice@example.com\n"), .outsideCard(line: 4))
    }

    func testACalendarIsNotAVCard() {
        XCTAssertEqual(refusal("BEGIN:VCALENDAR\nVERSION:2.0\nEND:VCALENDAR\n"), .notAVCard(line: 1))
        XCTAssertEqual(refusal("BEGIN:VCARD\nFN:Alice\nEND:VCALENDAR\n"), .mismatchedEnd(line: 3))
    }

    func testAFoldedLineThatContinuesNothing() {
        XCTAssertEqual(refusal(" alice@example.com\nBEGIN:VCARD\nEND:VCARD\n"), .continuationWithoutProperty(line: 1))
    }

    func testAPropertyNameWithCharactersNamesCannotHave() {
        XCTAssertEqual(refusal("BEGIN:VCARD\nE MAIL:alice@example.com\nEND:VCARD\n"), .invalidName(line: 2))
        XCTAssertEqual(refusal("BEGIN:VCARD\na.b.EMAIL:alice@example.com\nEND:VCARD\n"), .invalidName(line: 2))
        XCTAssertEqual(refusal("BEGIN:VCARD\n\u{17F}:alice@example.com\nEND:VCARD\n"), .invalidName(line: 2),
                       "checked before upper-casing, which would make it an S")
    }

    func testTextThatIsNotValidInItsCharset() {
        let bytes = VCardExporterTests.crlf("BEGIN:VCARD\nVERSION:3.0\n") + Array("FN:Jos".utf8) + [0xE9]
            + VCardExporterTests.crlf("\nEND:VCARD\n")
        XCTAssertEqual(refusal(bytes), .invalidText(line: 3), "3.0 without CHARSET is UTF-8; no guessing")
        XCTAssertEqual(refusal("BEGIN:VCARD\nVERSION:2.1\nFN;CHARSET=KOI8-R:Alice\nEND:VCARD\n"), .unsupportedCharset(line: 3))
    }

    func testAnUnknownVersion() {
        XCTAssertEqual(refusal("BEGIN:VCARD\nVERSION:5.0\nFN:Alice\nEND:VCARD\n"), .unsupportedVersion(line: 2))
    }

    func testEmptyAndBlankFiles() {
        XCTAssertEqual(refusal([]), .empty)
        XCTAssertEqual(refusal("\n\n   \n"), .empty)
    }

    func testAFileOverTheCapIsRefusedBeforeReading() {
        var bytes = VCardExporterTests.crlf("BEGIN:VCARD\nFN:Alice\nNOTE:")
        bytes += [UInt8](repeating: 0x61, count: VCardParser.maxBytes)
        bytes += VCardExporterTests.crlf("\nEND:VCARD\n")
        XCTAssertEqual(refusal(bytes), .tooLarge(limit: VCardParser.maxBytes))
        XCTAssertNil(VCardError.tooLarge(limit: VCardParser.maxBytes).line)
    }

    func testAFileJustUnderTheCapIsRead() throws {
        var bytes = VCardExporterTests.crlf("BEGIN:VCARD\nFN:Alice\nNOTE:")
        let tail = VCardExporterTests.crlf("\nEND:VCARD\n")
        bytes += [UInt8](repeating: 0x61, count: VCardParser.maxBytes - bytes.count - tail.count)
        bytes += tail
        XCTAssertEqual(bytes.count, VCardParser.maxBytes)
        XCTAssertEqual(try VCardParser.parse(bytes).count, 1)
    }
}

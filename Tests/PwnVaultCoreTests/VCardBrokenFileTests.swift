import XCTest
@testable import PwnVaultCore

/// Files that are not well-formed vCards. One in which no vCard begins is refused; in the others what
/// cannot be read is skipped and named by its line (never by what it holds), and the rest is read.
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

    /// What the parser read of `text` (LF made CRLF); fails the test when the file is refused.
    private func reading(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> VCardReading {
        reading(VCardExporterTests.crlf(text), file: file, line: line)
    }

    private func reading(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> VCardReading {
        do {
            let r = try VCardParser.read(bytes, locale: nil)
            for skip in r.skippedLines + r.skippedContacts {
                for secret in ["alice", "example", "Alice"] {
                    XCTAssertFalse(skip.message.contains(secret), "'\(secret)' in \(skip.message)", file: file, line: line)
                }
            }
            return r
        } catch {
            XCTFail("refused: \(error)", file: file, line: line)
            return VCardReading()
        }
    }

    private func skipped(_ r: VCardReading) -> [VCardError] { r.skippedLines.map(\.problem) }

    func testACardWithoutEndIsSkippedAndTheOthersAreRead() {
        let r = reading("BEGIN:VCARD\nVERSION:3.0\nFN:Alice\nEND:VCARD\nBEGIN:VCARD\nVERSION:3.0\nFN:Alice\nEMAIL:alice@example.com\n")
        XCTAssertEqual(r.contacts.map(\.line), [1])
        XCTAssertEqual(r.skippedContacts, [VCardSkip(.missingEnd(line: 5), line: 5)])
        XCTAssertTrue(r.skippedContacts[0].message.hasPrefix("line 5: "), r.skippedContacts[0].message)
    }

    func testABeginInsideAnOpenCardSkipsTheCutOffCard() {
        // Two exports joined after the first lost its END: the second contact is read, the first is not
        // (its last value may be cut off too).
        let r = reading("BEGIN:VCARD\nVERSION:3.0\nFN:Alice\nEMAIL:alice@exa\nBEGIN:VCARD\nVERSION:3.0\nFN:Bob\nEMAIL:bob@example.com\nEND:VCARD\n")
        XCTAssertEqual(r.contacts.map(\.name), ["Bob"])
        XCTAssertEqual(r.skippedContacts.map(\.line), [1])
        XCTAssertEqual(r.skippedContacts.first?.problem, .nestedBegin(line: 5, outer: 1))
    }

    func testAnEndWithoutBeginIsSkipped() {
        let r = reading("BEGIN:VCARD\nFN:Alice\nEND:VCARD\nEND:VCARD\n")
        XCTAssertEqual(r.contacts.count, 1)
        XCTAssertEqual(skipped(r), [.endWithoutBegin(line: 4)])
    }

    func testAPropertyLineWithoutAColonIsSkippedAndTheCardKept() {
        let r = reading("BEGIN:VCARD\nVERSION:3.0\nFN:Alice\nEMAIL alice@example.com\nEMAIL:alice@example.org\nEND:VCARD\n")
        XCTAssertEqual(r.contacts.first?.emails.map(\.value), ["alice@example.org"])
        XCTAssertEqual(skipped(r), [.missingColon(line: 4)])
    }

    func testATruncatedQuotedPrintableSequenceSkipsThatValue() {
        let r = reading("BEGIN:VCARD\nVERSION:2.1\nFN;ENCODING=QUOTED-PRINTABLE:Alice=4\nN:Liddell;Alice\nEND:VCARD\n")
        XCTAssertEqual(skipped(r), [.invalidQuotedPrintable(line: 3)])
        XCTAssertEqual(r.contacts.first?.name, "Alice Liddell", "N stands in for the FN that could not be read")
        XCTAssertEqual(skipped(reading("BEGIN:VCARD\nVERSION:2.1\nFN;QUOTED-PRINTABLE:Al=ZZice\nEND:VCARD\n")),
                       [.invalidQuotedPrintable(line: 3)])
    }

    func testASoftLineBreakThatNothingContinues() {
        let r = reading("BEGIN:VCARD\nVERSION:2.1\nEMAIL;ENCODING=QUOTED-PRINTABLE:alice@example.com=\nEND:VCARD\n")
        XCTAssertEqual(r.contacts.count, 1, "END:VCARD still ends the card")
        XCTAssertEqual(skipped(r), [.invalidQuotedPrintable(line: 3)])
        let cut = reading("BEGIN:VCARD\nVERSION:2.1\nNOTE;ENCODING=QUOTED-PRINTABLE:Alice=")
        XCTAssertEqual(cut.skippedContacts.map(\.line), [1])
    }

    func testDamagedValuesInPropertiesPwnvaultDoesNotUseAreNotEvenDecoded() {
        let r = reading("BEGIN:VCARD\nFN:Alice\nNOTE;ENCODING=QUOTED-PRINTABLE:caf=E\nPHOTO;ENCODING=b;TYPE=JPEG:*not base64*\nEND:VCARD\n")
        XCTAssertEqual(r.contacts.first?.name, "Alice")
        XCTAssertEqual(r.skippedLines, [])
    }

    func testBrokenBase64InAnAddressSkipsIt() {
        let r = reading("BEGIN:VCARD\nFN:Alice\nEMAIL;ENCODING=b:*not base64*\nEMAIL;ENCODING=b:YWxpY2VAZXhhbXBsZS5jb20=\nEND:VCARD\n")
        XCTAssertEqual(r.contacts.first?.emails.map(\.value), ["alice@example.com"])
        XCTAssertEqual(skipped(r), [.invalidBase64(line: 3)])
    }

    func testTextOutsideACard() throws {
        XCTAssertThrowsError(try VCardParser.parse(VCardExporterTests.crlf("Alice <alice@example.com>\n"))) {
            XCTAssertEqual($0 as? VCardError, .noVCard)
            XCTAssertFalse(($0 as? VCardError)?.message.contains("alice") ?? true)
        }
        let r = reading("BEGIN:VCARD\nFN:Alice\nEND:VCARD\nEMAIL:alice@example.com\nNOTE:x\n")
        XCTAssertEqual(r.skippedLines, [VCardSkip(.outsideCard(line: 4), line: 4, lastLine: 5)], "a run of lines is one skip")
        XCTAssertEqual(r.skippedLines.first?.message, "lines 4-5: text outside a vCard (a contact starts with BEGIN:VCARD)")
    }

    func testACalendarIsNotAVCard() {
        XCTAssertEqual(refusal("BEGIN:VCALENDAR\nVERSION:2.0\nEND:VCALENDAR\n"), .notAVCard(line: 1))
        let r = reading("BEGIN:VCARD\nFN:Alice\nEND:VCALENDAR\nEND:VCARD\n")
        XCTAssertEqual(skipped(r), [.mismatchedEnd(line: 3)])
        XCTAssertEqual(r.contacts.count, 1)
    }

    func testAFoldedLineThatContinuesNothing() {
        XCTAssertEqual(skipped(reading(" alice@example.com\nBEGIN:VCARD\nEND:VCARD\n")), [.continuationWithoutProperty(line: 1)])
    }

    func testAPropertyNameWithCharactersNamesCannotHave() {
        XCTAssertEqual(skipped(reading("BEGIN:VCARD\nE MAIL:alice@example.com\nEND:VCARD\n")), [.invalidName(line: 2)])
        XCTAssertEqual(skipped(reading("BEGIN:VCARD\na.b.EMAIL:alice@example.com\nEND:VCARD\n")), [.invalidName(line: 2)])
        let s = reading("BEGIN:VCARD\n\u{17F}:alice@example.com\nEND:VCARD\n")
        XCTAssertEqual(skipped(s), [.invalidName(line: 2)], "checked before upper-casing, which would make it an S")
    }

    func testTextThatIsNotValidInItsCharset() {
        let bytes = VCardExporterTests.crlf("BEGIN:VCARD\nVERSION:3.0\n") + Array("FN:Jos".utf8) + [0xE9]
            + VCardExporterTests.crlf("\nEND:VCARD\n")
        XCTAssertEqual(skipped(reading(bytes)), [.invalidText(line: 3)], "3.0 without CHARSET is UTF-8; no guessing")
        XCTAssertEqual(skipped(reading("BEGIN:VCARD\nVERSION:2.1\nFN;CHARSET=X-KLINGON:Alice\nEND:VCARD\n")),
                       [.unsupportedCharset(line: 3)])
        XCTAssertEqual(skipped(reading("BEGIN:VCARD\nVERSION:2.1\nFN;CHARSET=UTF-8//TRANSLIT:Alice\nEND:VCARD\n")),
                       [.unsupportedCharset(line: 3)], "iconv's suffixes are not passed on")
    }

    func testAnUnknownVersionIsSkippedAndTheCardRead() {
        let r = reading("BEGIN:VCARD\nVERSION:5.0\nFN:Alice\nEND:VCARD\n")
        XCTAssertEqual(skipped(r), [.unsupportedVersion(line: 2)])
        XCTAssertEqual(r.contacts.first?.name, "Alice")
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
            XCTAssertTrue(e.line != nil || e == .noVCard, "\(e)")
        }
    }

    func testNoiseInsideAValidCardSkipsThatLine() {
        let bytes = VCardExporterTests.crlf("BEGIN:VCARD\nVERSION:3.0\nFN:Alice\n") + [0xC3, 0x28, 0x00, 0x7F, 0x3A]
            + VCardExporterTests.crlf("\nEND:VCARD\n")
        let r = reading(bytes)
        XCTAssertEqual(skipped(r), [.binary(line: 4)])
        XCTAssertEqual(r.contacts.first?.name, "Alice")
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

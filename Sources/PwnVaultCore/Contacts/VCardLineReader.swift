/// Splits a vCard file into logical lines, the layer below properties.
///
/// - Physical lines end with CRLF, LF or a lone CR (old Mac exporters); a UTF-8 byte-order mark at the
///   start of a line is dropped (files concatenated with `cat` carry one per part).
/// - Folding (RFC 6350 3.2, RFC 2426 2.6): a line starting with a space or tab continues the previous
///   one, without that first space or tab. The same rule is used for 2.1, as every exporter folds so.
/// - Quoted-printable soft line breaks (vCard 2.1): a quoted-printable value ending in `=` continues on
///   the next physical line, whatever it starts with; the `=` is dropped.
/// - Empty lines are skipped (exporters put them between cards, and after 2.1 base64 values).
/// - A NUL byte anywhere means the file is not text.
enum VCardLineReader {
    static func forEachLogicalLine(in bytes: [UInt8], _ body: (VCardLogicalLine) throws -> Void) throws {
        var current: VCardLogicalLine?
        var position = 0
        var number = 0
        while position < bytes.count {
            number += 1
            var end = position
            while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D {
                if bytes[end] == 0 { throw VCardError.binary(line: number) }
                end += 1
            }
            var content = bytes[position..<end]
            if end < bytes.count {
                end += (bytes[end] == 0x0D && end + 1 < bytes.count && bytes[end + 1] == 0x0A) ? 2 : 1
            }
            position = end
            if content.starts(with: byteOrderMark) { content = content.dropFirst(byteOrderMark.count) }

            if var open = current, endsInSoftLineBreak(open) {
                // The card's END cannot be the rest of a value: the '=' was the last thing the writer wrote.
                if isEndOfCard(content) { throw VCardError.invalidQuotedPrintable(line: open.lastLine) }
                open.bytes.removeLast()
                open.bytes.append(contentsOf: content)
                open.lastLine = number
                current = open
                continue
            }
            if content.isEmpty { continue }
            if content.first == space || content.first == tab {
                guard var open = current else {
                    if content.allSatisfy({ $0 == space || $0 == tab }) { continue }
                    throw VCardError.continuationWithoutProperty(line: number)
                }
                open.bytes.append(contentsOf: content.dropFirst())
                open.lastLine = number
                current = open
                continue
            }
            if let finished = current { try body(finished) }
            current = VCardLogicalLine(line: number, lastLine: number, bytes: Array(content))
        }
        if let finished = current {
            if endsInSoftLineBreak(finished) { throw VCardError.invalidQuotedPrintable(line: finished.lastLine) }
            try body(finished)
        }
    }

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
    private static let space: UInt8 = 0x20
    private static let tab: UInt8 = 0x09
    private static let equals: UInt8 = 0x3D

    private static func endsInSoftLineBreak(_ line: VCardLogicalLine) -> Bool {
        line.bytes.last == equals && VCardProperty.headerDeclaresQuotedPrintable(line.bytes)
    }

    private static func isEndOfCard(_ content: ArraySlice<UInt8>) -> Bool {
        VCardText.trimmed(String(decoding: content, as: UTF8.self)).uppercased() == "END:VCARD"
    }
}

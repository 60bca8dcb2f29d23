/// Splits a vCard file into logical lines, the layer below properties. It never refuses anything: a
/// line it cannot make sense of is handed on with its `problem`, and the parser skips it.
///
/// - Physical lines end with CRLF, LF or a lone CR (old Mac exporters); a UTF-8 byte-order mark at the
///   start of a line is dropped (files concatenated with `cat` carry one per part).
/// - Folding (RFC 6350 3.2, RFC 2426 2.6): a line starting with a space or tab continues the previous
///   one, without that first space or tab. The same rule is used for 2.1, as every exporter folds so.
/// - Quoted-printable soft line breaks (vCard 2.1): a quoted-printable value ending in `=` continues on
///   the next physical line, whatever it starts with; the `=` is dropped. `END:VCARD` is never such a
///   continuation: the line before it is handed on with a problem instead.
/// - Backslash continuation (Android's 2.1 exporter writes a multi-line address so): a value ending in
///   an unescaped `\` continues on the next line when that line cannot be a property of its own; the
///   two are joined with an escaped line break (`\n`), the line break the exporter meant.
/// - Empty lines are skipped (exporters put them between cards, and after 2.1 base64 values); lines
///   starting with `#` are comments (some hand-edited and KDE files have them) and are dropped too.
/// - A NUL byte makes its line unreadable (a binary file, or UTF-16 without a byte-order mark).
enum VCardLineReader {
    static func forEachLogicalLine(in bytes: [UInt8], _ body: (VCardLogicalLine) -> Void) {
        var current: VCardLogicalLine?
        var position = 0
        var number = 0
        while position < bytes.count {
            number += 1
            var end = position
            var nul = false
            while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D {
                if bytes[end] == 0 { nul = true }
                end += 1
            }
            var content = bytes[position..<end]
            if end < bytes.count {
                end += (bytes[end] == 0x0D && end + 1 < bytes.count && bytes[end + 1] == 0x0A) ? 2 : 1
            }
            position = end
            if content.starts(with: byteOrderMark) { content = content.dropFirst(byteOrderMark.count) }

            if var open = current, open.problem == nil, endsInSoftLineBreak(open) {
                if isEndOfCard(content) {
                    // The card's END cannot be the rest of a value: the '=' was the last thing the writer wrote.
                    open.problem = .invalidQuotedPrintable(line: open.lastLine)
                    body(open)
                    current = nil
                } else {
                    open.bytes.removeLast()
                    open.join(content, line: number, nul: nul)
                    current = open
                    continue
                }
            } else if var open = current, open.problem == nil, !content.isEmpty, content.first != space, content.first != tab,
                      endsInBackslash(open), !canStartProperty(content) {
                open.bytes.removeLast()
                open.bytes.append(contentsOf: [backslash, letterN])
                open.join(content, line: number, nul: nul)
                current = open
                continue
            }
            if content.isEmpty { continue }
            if content.first == hash {
                if let finished = current { body(finished) }
                current = nil
                continue
            }
            if content.first == space || content.first == tab {
                guard var open = current else {
                    if content.allSatisfy({ $0 == space || $0 == tab }) { continue }
                    var orphan = VCardLogicalLine(line: number, lastLine: number, bytes: Array(content))
                    orphan.problem = nul ? .binary(line: number) : .continuationWithoutProperty(line: number)
                    body(orphan)
                    continue
                }
                open.join(content.dropFirst(), line: number, nul: nul)
                current = open
                continue
            }
            if let finished = current { body(finished) }
            current = VCardLogicalLine(line: number, lastLine: number, bytes: Array(content))
            if nul { current?.problem = .binary(line: number) }
        }
        if var finished = current {
            if finished.problem == nil, endsInSoftLineBreak(finished) { finished.problem = .invalidQuotedPrintable(line: finished.lastLine) }
            body(finished)
        }
    }

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
    private static let space: UInt8 = 0x20
    private static let tab: UInt8 = 0x09
    private static let equals: UInt8 = 0x3D
    private static let hash: UInt8 = 0x23
    private static let backslash: UInt8 = 0x5C
    private static let letterN: UInt8 = 0x6E

    private static func endsInSoftLineBreak(_ line: VCardLogicalLine) -> Bool {
        line.bytes.last == equals && VCardProperty.headerDeclaresQuotedPrintable(line.bytes)
    }

    /// An odd number of backslashes at the end of a value that is not quoted-printable.
    private static func endsInBackslash(_ line: VCardLogicalLine) -> Bool {
        let trailing = line.bytes.reversed().prefix { $0 == backslash }.count
        return trailing % 2 == 1 && VCardProperty.hasValue(line.bytes) && !VCardProperty.headerDeclaresQuotedPrintable(line.bytes)
    }

    /// Whether a physical line reads as a property of its own: a name vCard defines (or an `X-` name),
    /// possibly grouped, then parameters or the value.
    private static func canStartProperty(_ content: ArraySlice<UInt8>) -> Bool {
        guard let header = VCardProperty.headerName(Array(content)) else { return false }
        let name = String(header.split(separator: ".").last ?? "").uppercased()
        return name.hasPrefix("X-") || VCardProperty.knownNames.contains(name)
    }

    private static func isEndOfCard(_ content: ArraySlice<UInt8>) -> Bool {
        VCardText.trimmed(String(decoding: content, as: UTF8.self)).uppercased() == "END:VCARD"
    }
}

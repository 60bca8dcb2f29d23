@testable import PwnVaultCore
import Foundation

// The HTML-to-text renderer of breach descriptions (`HTMLText.render`).
//
// Invariants:
// - the text holds no control character but `\n`, no DEL, no C1 control, no bidi control, so no
//   escape sequence can reach the terminal; the links hold none at all (not even `\n`);
// - the text has no trailing space on a line, no blank line at either end, never two blank lines in
//   a row;
// - with a width, a line longer than the width is a single word.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let width = Int(input.byte() % 100) - 1   // -1 ... 98; 0 and -1: no wrapping
    let html = String(decoding: input.rest(), as: UTF8.self)
    let (text, links) = HTMLText.render(html, width: width)

    for scalar in text.unicodeScalars where scalar != "\n" {
        invariant(!Sanitizer.isStripped(scalar), "the text holds U+\(String(scalar.value, radix: 16, uppercase: true))")
    }
    for link in links {
        invariant(!link.isEmpty, "an empty link")
        for scalar in link.unicodeScalars {
            invariant(!Sanitizer.isStripped(scalar), "a link holds U+\(String(scalar.value, radix: 16, uppercase: true))")
        }
    }
    invariant(Set(links).count == links.count, "a link target is numbered twice")

    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    invariant(lines.first?.isEmpty != true || text.isEmpty, "the text starts with a blank line")
    invariant(lines.last?.isEmpty != true || text.isEmpty, "the text ends with a blank line")
    for (index, line) in lines.enumerated() {
        invariant(line.last != " ", "line \(index + 1) ends in a space")
        if index > 0 { invariant(!(line.isEmpty && lines[index - 1].isEmpty), "two blank lines in a row") }
    }
    return 0
}

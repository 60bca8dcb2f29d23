@testable import PwnVaultCore
import Foundation

// The passwords-on-stdin line reader (`PasswordLineReader`), fed through a pipe in pieces whose sizes
// the input chooses (reads then return short, as from a terminal or a slow producer), and compared
// with a plain split of the same bytes: lines end at `\n`, one `\r` before it is dropped, empty lines
// are skipped but counted, a last line needs no line end, and the first line longer than
// `maxLineBytes` stops the reading with its number.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let pieceSizes = input.take(4).map { Int($0) * 37 + 1 }
    var text = input.rest()
    // Long lines are what the limit is about; grow them from a marker byte instead of relying on the
    // fuzzer to write a kilobyte.
    if let marker = text.firstIndex(of: 0xFF) {
        text.replaceSubrange(marker...marker, with: [UInt8](repeating: UInt8(ascii: "x"), count: PasswordLineReader.maxLineBytes - 2 + Int(text.count % 5)))
    }

    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { return 0 }
    signal(SIGPIPE, SIG_IGN)   // the reader may stop early; the writer then gets EPIPE
    let done = DispatchSemaphore(value: 0)
    let writeEnd = fds[1]
    let writer = Thread { [text] in
        var offset = 0, piece = 0
        while offset < text.count {
            let n = min(pieceSizes.isEmpty ? text.count : pieceSizes[piece % pieceSizes.count], text.count - offset)
            let written = text.withUnsafeBytes { Glibc.write(writeEnd, $0.baseAddress! + offset, n) }
            if written <= 0 { break }
            offset += written; piece += 1
        }
        close(writeEnd)
        done.signal()
    }
    writer.start()

    var lines: [(Int, [UInt8])] = []
    var failure: PasswordInputError?
    do {
        try PasswordLineReader(fd: fds[0]).forEachLine { number, password in lines.append((number, Array(password))) }
    } catch let error as PasswordInputError {
        failure = error
    } catch {
        invariant(false, "the reader threw \(type(of: error))")
    }
    close(fds[0])
    done.wait()

    let (expectedLines, expectedFailure) = reference(text)
    invariant(failure == expectedFailure, "the reader ended with \(String(describing: failure)), expected \(String(describing: expectedFailure))")
    invariant(lines.count == expectedLines.count, "the reader gave \(lines.count) lines, expected \(expectedLines.count)")
    for (got, want) in zip(lines, expectedLines) {
        invariant(got.0 == want.0 && got.1 == want.1, "line \(want.0) differs")
    }
    return 0
}

private func reference(_ text: [UInt8]) -> ([(Int, [UInt8])], PasswordInputError?) {
    var pieces = text.split(separator: 0x0A, omittingEmptySubsequences: false)
    if pieces.last?.isEmpty == true { pieces.removeLast() }   // after a final line end: no line
    var lines: [(Int, [UInt8])] = []
    for (index, piece) in pieces.enumerated() {
        var line = piece
        if line.last == 0x0D { line = line.dropLast() }
        if line.count > PasswordLineReader.maxLineBytes { return (lines, .lineTooLong(line: index + 1)) }
        if !line.isEmpty { lines.append((index + 1, Array(line))) }
    }
    return (lines, nil)
}

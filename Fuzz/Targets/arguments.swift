@testable import PwnVaultCLI
@testable import PwnVaultCore
import Foundation

// The argument reader (`ArgumentReader.read`) against every command's real spec, and the raw-argv
// UTF-8 check in front of it. The input is the command line: words separated by NUL bytes; the first
// byte picks the command.
//
// Invariants:
// - it returns parsed arguments or throws a `UsageError`, nothing else;
// - positionals are arguments, in their order; options and flags are the spec's or global ones;
// - an error message quotes only plain words (letters, digits, '-'): anything else may be an account
//   typed in the wrong place, and stderr may be a log;
// - "did you mean" only ever suggests a real option name.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let spec = Commands.all[Int(input.byte()) % Commands.all.count].spec
    let raw = input.rest().split(separator: 0, omittingEmptySubsequences: false).map { Array($0) }
    let notUTF8 = RawArguments.firstNotUTF8(raw)
    invariant(notUTF8 == raw.firstIndex { String(validating: $0, as: UTF8.self) == nil }.map { $0 + 1 },
              "the UTF-8 check names the wrong argument")
    guard notUTF8 == nil else { return 0 }
    let arguments = raw.map { String(decoding: $0, as: UTF8.self) }
    let names = Set((spec.options + GlobalOptions.all).map(\.name))

    do {
        let parsed = try ArgumentReader.read(arguments, spec: spec)
        var rest = arguments[...]
        for positional in parsed.positionals {
            guard let at = rest.firstIndex(of: positional) else {
                invariant(false, "a positional that is not an argument, or out of order")
                return 0
            }
            rest = rest[(at + 1)...]
        }
        for name in parsed.flags { invariant(names.contains(name), "a flag that no spec defines") }
        for name in parsed.values.keys { invariant(names.contains(name), "an option that no spec defines") }
    } catch let error as UsageError {
        let message = error.message
        for (index, part) in message.split(separator: "'", omittingEmptySubsequences: false).enumerated() where index % 2 == 1 {
            let word = part.drop { $0 == "-" }
            invariant(UsageError.isPlainWord(word), "an error message quotes something that is not a plain word")
        }
        if case let .unknownOption(_, _, suggestion?) = error {
            invariant(names.contains(String(suggestion.dropFirst(2))) && suggestion.hasPrefix("--"), "a suggestion that is not an option")
        }
    } catch {
        invariant(false, "the reader threw \(type(of: error))")
    }
    return 0
}

/// The command line as the kernel passed it: bytes, before Swift turns them into `String`s.
///
/// `CommandLine.arguments` repairs bytes that are not UTF-8 by putting U+FFFD in their place, so an
/// account typed in a Latin-1 terminal would be stored as a different, wrong account (and a vault path
/// would name another file). pwnvault refuses such arguments instead, as it refuses stdin that is not
/// UTF-8. The check runs on the raw `argv` before anything else reads the command line.
enum RawArguments {
    /// The arguments after the program's name, as bytes (`argv[1...]`).
    static func fromProcess() -> [[UInt8]] {
        let argc = Int(CommandLine.argc)
        let argv = CommandLine.unsafeArgv
        guard argc > 1 else { return [] }
        return (1..<argc).map { i in
            guard let p = argv[i] else { return [] }
            var bytes: [UInt8] = []
            var n = 0
            while p[n] != 0 { bytes.append(UInt8(bitPattern: p[n])); n += 1 }
            return bytes
        }
    }

    /// The position (1 = the first word after `pwnvault`) of the first argument that is not valid
    /// UTF-8, or nil when all are. Overlong forms, surrogates and code points beyond U+10FFFF are
    /// invalid, as the standard library's validation says.
    static func firstNotUTF8(_ arguments: [[UInt8]]) -> Int? {
        for (i, bytes) in arguments.enumerated() where String(validating: bytes, as: UTF8.self) == nil {
            return i + 1
        }
        return nil
    }
}

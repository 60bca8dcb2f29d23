import FoundationEssentials

/// A `pass` store (zx2c4's password-store): a folder of `.gpg` files, each decrypted with the user's own
/// `gpg`. In a decrypted entry the first line is the password and `login:`, `user:`, `username:`,
/// `email:` and `url:` lines (any case) give the rest; where they do not, the path does: the last
/// folder or file name that is a web site's name is the address (`web/example.com/ann.gpg`,
/// `example.com.gpg`), and a file below it is named after the user (`ann`).
///
/// gpg's output (which holds the password) is read into memory only, copied into `SecretBytes` and
/// overwritten; nothing is written to disk. An entry gpg cannot decrypt is skipped with that reason and
/// the rest are read. The date is the file's modification time as `entryModified`: pass rewrites the file
/// whenever the entry changes, and a copy of the store only makes it later, so it bounds the password's
/// date from above. Entries are numbered in the order of their paths (sorted), from 1.
enum PassStoreReader {
    /// Decrypts one file (full path) and returns its plaintext, or nil when it cannot.
    typealias Decrypt = (String) -> [UInt8]?

    /// Folders and files deeper than this are not read (a store is a few levels deep).
    static let maxDepth = 16
    /// More entries than any store has; the rest are not read.
    static let maxEntries = 20_000

    static func read(folder: String, decrypt: Decrypt) throws -> LoginReading {
        var files: [String] = []
        collect(folder, relative: "", depth: 0, into: &files)
        guard !files.isEmpty else { throw LoginReadError.empty }
        var reading = LoginReading(format: .passStore)
        for (k, relative) in files.sorted().prefix(maxEntries).enumerated() {
            let position = LoginPosition.entry(k + 1)
            let path = folder + "/" + relative
            guard var plain = decrypt(path) else {
                reading.skipped.append(LoginSkip(position: position, problem: .cannotDecrypt)); continue
            }
            defer { for i in plain.indices { plain[i] = 0 } }
            let modified = (try? FileSystem.status(path, followingLinks: true))?.modified
            let date = modified.map { LoginPasswordDate(date: Date(timeIntervalSince1970: $0), meaning: .entryModified) }
            reading.logins.append(entry(plain, path: String(relative.dropLast(4)), position: position, date: date))
        }
        return reading
    }

    /// One decrypted entry.
    static func entry(_ plain: [UInt8], path: String, position: LoginPosition, date: LoginPasswordDate?) -> ImportedLogin {
        let end = plain.firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) ?? plain.count
        let password = end > 0 ? SecretBytes(copying: plain[0..<end]) : nil
        var url = "", username = ""
        var lineStart = end
        while lineStart < plain.count {
            while lineStart < plain.count, plain[lineStart] == 0x0A || plain[lineStart] == 0x0D { lineStart += 1 }
            let lineEnd = plain[lineStart...].firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) ?? plain.count
            let line = String(decoding: plain[lineStart..<lineEnd], as: UTF8.self)
            lineStart = lineEnd
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon].trimmingWhitespace().lowercased()
            let value = String(line[line.index(after: colon)...]).trimmingWhitespace()
            switch key {
            case "url" where url.isEmpty: url = value
            case "login", "user", "username", "email": if username.isEmpty { username = value }
            default: continue
            }
        }
        let components = path.split(separator: "/").map(String.init)
        if url.isEmpty, let k = components.lastIndex(where: { (try? LoginSite.of($0).get()) != nil }) {
            url = components[k]
            if username.isEmpty, k < components.count - 1 { username = components[components.count - 1] }
        }
        return ImportedLogin(position: position, url: url, username: username, password: password, passwordDate: date)
    }

    private static func collect(_ folder: String, relative: String, depth: Int, into files: inout [String]) {
        guard depth <= maxDepth, files.count < maxEntries,
              let names = try? FileSystem.directoryEntries(relative.isEmpty ? folder : folder + "/" + relative) else { return }
        for name in names where !name.hasPrefix(".") {   // .git, .gpg-id, .extensions
            let child = relative.isEmpty ? name : relative + "/" + name
            guard let status = try? FileSystem.status(folder + "/" + child, followingLinks: false) else { continue }
            switch status.kind {
            case .directory: collect(folder, relative: child, depth: depth + 1, into: &files)
            case .regular where name.hasSuffix(".gpg") && name.count > 4: files.append(child)
            default: continue   // links are not followed: a store has none, and a loop would never end
            }
        }
    }

    /// Decrypts with the user's `gpg` (found in PATH), in batch mode, within a time limit: what `pass show` runs.
    static func gpgDecrypt(environment: [String: String], timeLimit: Double = 30) -> Decrypt {
        { path in
            guard let gpg = SystemCommand.locate("gpg", path: environment["PATH"]) ?? SystemCommand.locate("gpg2", path: environment["PATH"]),
                  var result = Subprocess.run(gpg, arguments: ["--quiet", "--batch", "--yes", "--decrypt", "--", path],
                                              environment: ChildEnvironment.sanitized(environment),
                                              output: .capture(limit: 1 << 20), error: .discard, timeLimit: timeLimit)
            else { return nil }
            guard result.termination == .exited(0) else {
                for i in result.output.indices { result.output[i] = 0 }
                return nil
            }
            return result.output
        }
    }
}

/// Why a downloaded Pwned Passwords file cannot be searched. The path is shown cleaned of control
/// characters; nothing about the password or its hash is ever part of the message.
public enum PasswordFileError: Error, Equatable, Sendable {
    /// The file could not be opened or read; `reason` is the C library's wording.
    case unreadable(path: String, reason: String)
    /// A folder, a device or a pipe: the search needs a regular file it can read at any offset.
    case notARegularFile(path: String)
    /// The file has no lines.
    case empty(path: String)
    /// The file holds NTLM hashes (32 hex characters); only the SHA-1 file can be searched.
    case ntlm(path: String)
    /// A line near `offset` is not `40 hex:count`.
    case notInFormat(path: String, offset: Int)
    /// The hashes are not in ascending order near `offset`: a binary search would give wrong answers.
    case notSorted(path: String, offset: Int)
}

extension PasswordFileError: UserFacingError {
    public var message: String {
        switch self {
        case let .unreadable(path, reason): return msg("cannot read {1}: {2}", Self.shown(path), reason)
        case let .notARegularFile(path): return msg("{1} is not a regular file", Self.shown(path))
        case let .empty(path): return msg("{1} is empty", Self.shown(path))
        case let .ntlm(path): return msg("{1} holds ntlm hashes; only the sha-1 file can be searched", Self.shown(path))
        case let .notInFormat(path, offset):
            return msg("{1} is not a pwned passwords file (a line near byte {2} is not HASH:COUNT)", Self.shown(path), offset)
        case let .notSorted(path, offset):
            return msg("{1} is not sorted by hash (near byte {2}); a search in it would give wrong answers", Self.shown(path), offset)
        }
    }

    public var hint: String? {
        switch self {
        case .ntlm, .notInFormat, .empty:
            return msg("download the sha-1 file (ordered by hash) with HIBP's PwnedPasswordsDownloader")
        case .notSorted:
            return msg("use the file ordered by hash as downloaded, or sort it with LC_ALL=C sort")
        case .unreadable, .notARegularFile: return nil
        }
    }

    public var exitStatus: ExitStatus { .usage }

    static func shown(_ path: String) -> String {
        let clean = Sanitizer.singleLine(path)
        return clean.count > 200 ? "…" + String(clean.suffix(199)) : clean
    }
}

extension TrustedPath.Refusal {
    /// What is wrong, for a person: the path and, where that is the reason, its owner or mode.
    public var reason: String {
        let shown = Sanitizer.singleLine(path)
        switch self {
        case .missing: return msg("{1} is missing", shown)
        case .symbolicLink: return msg("{1} is a symbolic link", shown)
        case .notRegularFile: return msg("{1} is not a regular file or folder", shown)
        case let .foreignOwner(_, owner): return msg("{1} belongs to uid {2}, neither root nor you", shown, owner)
        case let .writableByOthers(_, mode):
            return msg("{1} may be written by others than its owner (mode {2})", shown, Self.octal(mode))
        case let .unreadable(_, reason): return msg("{1} cannot be examined ({2})", shown, Sanitizer.singleLine(reason))
        }
    }

    /// `0755`, `1777`.
    static func octal(_ mode: UInt32) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

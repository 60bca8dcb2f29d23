/// Why a `--pick` answer could not be read. Shown on the terminal before asking again; the messages
/// repeat numbers only, never other text the person typed.
public enum ContactPickError: UserFacingError, Equatable, Sendable {
    /// The nth entry is not a number, a range, a number with a letter, `all` or `none`.
    case notUnderstood(entry: Int)
    /// A contact number outside 1…count.
    case noSuchContact(number: Int, count: Int)
    /// A letter beyond the contact's addresses.
    case noSuchAddress(contact: Int, letter: String)
    /// A range whose end comes before its start.
    case backwardRange(from: Int, to: Int)

    public var message: String {
        switch self {
        case let .notUnderstood(entry):
            return "entry \(entry) is not a number, a range (3-5), a number with a letter (2b), 'all' or 'none'"
        case let .noSuchContact(number, count): return "there is no contact \(number) (the list goes from 1 to \(count))"
        case let .noSuchAddress(contact, letter): return "contact \(contact) has no address '\(letter)'"
        case let .backwardRange(from, to): return "the range \(from)-\(to) goes backwards"
        }
    }

    public var exitStatus: ExitStatus { .usage }
}

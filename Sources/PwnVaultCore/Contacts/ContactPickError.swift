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
            return msg("entry {1} is not a number, a range (3-5), a number with a letter (2b), 'all' or 'none'", entry)
        case let .noSuchContact(number, count): return msg("there is no contact {1} (the list goes from 1 to {2})", number, count)
        case let .noSuchAddress(contact, letter): return msg("contact {1} has no address '{2}'", contact, letter)
        case let .backwardRange(from, to): return msg("the range {1}-{2} goes backwards", from, to)
        }
    }

    public var exitStatus: ExitStatus { .usage }
}

/// How phone numbers are read: the region their national forms are read in (`--region`, else the
/// locale's territory) and libphonenumber, loaded at the first number (`PhoneNumberLibrary`).
public struct PhoneNumbering: Sendable {
    /// The region national forms are read in; nil: only numbers written with their country code.
    public let region: PhoneRegion?
    private let library: @Sendable () throws -> PhoneNumberLibrary

    /// - Parameter library: the shim; by default the process's, loaded at the first number.
    public init(region: PhoneRegion?, library: @escaping @Sendable () throws -> PhoneNumberLibrary = { try PhoneNumberLibrary.shared() }) {
        self.region = region
        self.library = library
    }

    /// Numbers with their country code only (where no phone number is expected: e-mail aliases).
    public static let internationalOnly = PhoneNumbering(region: nil)

    /// `text` in E.164. Throws `PhoneLibraryError` when libphonenumber cannot be loaded. A region
    /// libphonenumber does not know (a locale's `en_XX`) counts as none.
    func read(_ text: String) throws -> Result<PhoneNumberLibrary.Reading, PhoneNumberLibrary.Failure> {
        let lib = try library()
        return lib.e164(text, region: region.flatMap { lib.knows($0) ? $0 : nil })
    }

    /// Whether libphonenumber knows `region` (loads it).
    public func knows(_ region: PhoneRegion) throws -> Bool { try library().knows(region) }
}

/// Where in the payload JSON a value sits, e.g. `accounts[3].result.status`, for error reasons.
///
/// Made on every member read, so it is a few plain fields, and becomes text only when an error is
/// reported. It names positions and member names, never a value: values may be accounts.
struct PayloadJSONPath: Equatable, CustomStringConvertible {
    /// The index in `accounts`, for a value inside an account (or the account itself).
    var account: Int?
    /// Whether the value is inside the account's `result`.
    var inResult = false
    /// Whether the value is inside the result's `lastFailure`.
    var inFailure = false
    /// The index in the account's `findings`, for a value inside a finding.
    var finding: Int?
    /// Whether the value is inside the top-level `monitor`.
    var inMonitor = false
    /// The member name, when the value is a member (nil for an account or the top level).
    var member: StaticString?
    /// The index in the member's array (`breaches[2]`).
    var element: Int?

    /// The top-level object itself.
    static let topLevel = PayloadJSONPath()

    /// A member of the top-level object.
    static func top(_ member: StaticString) -> PayloadJSONPath { PayloadJSONPath(member: member) }

    /// The account at `index`, or one of its members.
    static func account(_ index: Int, _ member: StaticString? = nil) -> PayloadJSONPath {
        PayloadJSONPath(account: index, member: member)
    }

    /// A member of the result of the account at `index`.
    static func result(_ index: Int, _ member: StaticString, element: Int? = nil) -> PayloadJSONPath {
        PayloadJSONPath(account: index, inResult: true, member: member, element: element)
    }

    /// A member of the `lastFailure` of the result of the account at `index`.
    static func failure(_ index: Int, _ member: StaticString) -> PayloadJSONPath {
        PayloadJSONPath(account: index, inResult: true, inFailure: true, member: member)
    }

    /// A member of finding `finding` of the account at `index` (or the finding itself).
    static func finding(_ index: Int, _ finding: Int, _ member: StaticString? = nil) -> PayloadJSONPath {
        PayloadJSONPath(account: index, finding: finding, member: member)
    }

    /// A member of the top-level `monitor`.
    static func monitor(_ member: StaticString) -> PayloadJSONPath {
        PayloadJSONPath(inMonitor: true, member: member)
    }

    var description: String {
        var text = ""
        if inMonitor { text += "monitor" }
        if let account { text += "accounts[\(account)]" }
        if inResult { text += ".result" }
        if inFailure { text += ".lastFailure" }
        if let finding { text += ".findings[\(finding)]" }
        if let member { text += (text.isEmpty ? "" : ".") + member.description }
        if let element { text += "[\(element)]" }
        return text.isEmpty ? "the top level" : text
    }

    static func == (a: PayloadJSONPath, b: PayloadJSONPath) -> Bool { a.description == b.description }
}

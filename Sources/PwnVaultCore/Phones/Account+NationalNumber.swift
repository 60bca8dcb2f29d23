/// Whether a phone account was written without its country code (`0161 496 0000`, not `+44 161 …`),
/// so its country was assumed from `--region` or the locale (issue 32: said once). Tells nothing of the
/// number itself.
extension Account {
    public var isNationalPhoneNumber: Bool {
        guard kind == .phone else { return false }
        let text = entered.lowercased().hasPrefix("tel:") ? String(entered.dropFirst(4)) : entered
        let start = text.drop { $0 == " " || $0 == "(" }
        return !(start.hasPrefix("+") || start.hasPrefix("00"))
    }
}

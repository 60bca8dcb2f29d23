/// Text for the notification body when the server interprets markup (it lists `body-markup` among
/// its capabilities): `&`, `<` and `>` escaped, so no tag, link, image or entity in the text is
/// interpreted and the server shows exactly the plain text.
enum NotificationMarkup {
    static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}

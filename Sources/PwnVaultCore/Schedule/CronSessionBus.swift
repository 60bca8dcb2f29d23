import FoundationEssentials

/// The session bus address a crontab line can carry. cron starts jobs outside the desktop session, so
/// the line must name the bus, and the address must outlive the login that wrote it: this login's
/// `DBUS_SESSION_BUS_ADDRESS` is often `unix:path=/tmp/dbus-XXXX,guid=…`, a socket that is gone after
/// the next login, and then every run fails to reach the keyring (status 5) with nobody watching.
/// `$XDG_RUNTIME_DIR/bus` is the per-user bus that stays at the same path across logins; without it
/// there is no address to give, and the crontab route is refused (`ScheduleError.noLastingBus`).
public enum CronSessionBus {
    /// `unix:path=$XDG_RUNTIME_DIR/bus` (escaped as D-Bus addresses require) when that path is a socket.
    public static func address(environment: [String: String]) throws(ScheduleError) -> String {
        guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else {
            throw .noLastingBus(reason: phrase("XDG_RUNTIME_DIR is not set"))
        }
        guard runtime.hasPrefix("/") else { throw .noLastingBus(reason: phrase("XDG_RUNTIME_DIR is not an absolute path")) }
        let path = (runtime.hasSuffix("/") ? String(runtime.dropLast()) : runtime) + "/bus"
        guard FileSystem.isSocket(path) else {
            throw .noLastingBus(reason: "there is no session bus socket at \(SettingsError.shown(path, limit: nil))")
        }
        return "unix:path=" + escaped(path)
    }

    /// A D-Bus address value: bytes outside `[-0-9A-Za-z_/.*]` as `%XX` (D-Bus specification, "Server Addresses").
    static func escaped(_ value: String) -> String {
        var out = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "/"), UInt8(ascii: "."), UInt8(ascii: "*"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789abcdef")
                out += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0xF)])
            }
        }
        return out
    }
}

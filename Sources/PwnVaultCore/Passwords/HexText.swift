/// Hex digits as the Pwned Passwords files and API write them, read without case.
enum HexText {
    /// `b` as an upper-case hex digit (`0-9`, `A-F`), or nil when it is not a hex digit.
    @inline(__always)
    static func upperHexDigit(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39, 0x41...0x46: return b
        case 0x61...0x66: return b &- 0x20
        default: return nil
        }
    }
}

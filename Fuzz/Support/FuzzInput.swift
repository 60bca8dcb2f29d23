import Foundation

// Shared by every fuzz target (compiled into each one; see scripts/fuzz.sh).

/// Stops the run when an invariant does not hold. libFuzzer reports the abort as a crash and keeps
/// the input, so a broken invariant is found, minimised and replayed like any crash.
func invariant(_ holds: @autoclosure () -> Bool, _ what: @autoclosure () -> String,
               file: StaticString = #fileID, line: UInt = #line) {
    guard !holds() else { return }
    fputs("INVARIANT VIOLATED (\(file):\(line)): \(what())\n", stderr)
    abort()
}

/// Reads the fuzzer's bytes as a stream of small decisions, then hands out the rest.
struct FuzzInput {
    let bytes: UnsafeRawBufferPointer
    var position = 0

    init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        bytes = UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size)
    }

    var isAtEnd: Bool { position >= bytes.count }

    /// The next byte, 0 once the input is used up.
    mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// A little-endian UInt16 from the next two bytes.
    mutating func uint16() -> UInt16 { UInt16(byte()) | UInt16(byte()) << 8 }

    mutating func bool() -> Bool { byte() & 1 == 1 }

    /// Up to `count` bytes (fewer at the end).
    mutating func take(_ count: Int) -> [UInt8] {
        let end = min(bytes.count, position + max(0, count))
        defer { position = end }
        return Array(bytes[position..<end])
    }

    /// Everything not read yet.
    mutating func rest() -> [UInt8] { take(bytes.count - position) }
}

/// A small deterministic generator (SplitMix64) for targets that build structured inputs from a seed.
struct SplitMix64 {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { n <= 1 ? 0 : Int(next() % UInt64(n)) }
}

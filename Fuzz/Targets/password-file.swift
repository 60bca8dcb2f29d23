@testable import PwnVaultCore
import Foundation

// The offline Pwned Passwords file (`PwnedPasswordsFile`): a sorted `HASH:COUNT` file generated from
// the input (how many lines, which hashes and counts, CRLF or LF, upper or lower case, a line end at
// the end or not), searched for hashes that are in it and hashes that are not. Every answer must be
// the file's count, or 0 when absent.
//
// When the input's first byte says so, the generated file is then damaged at places the input
// chooses: the search may refuse it (`PasswordFileError`) but must never crash, hang or read outside
// its buffer.

private let path = "/dev/shm/pwnvault-fuzz-passwords-\(getpid()).txt"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let flags = input.byte()
    let crlf = flags & 1 != 0, lower = flags & 2 != 0, finalNewline = flags & 4 == 0, damage = flags & 8 != 0
    let lineCount = Int(input.uint16() % 1200) + 1
    var random = SplitMix64(state: UInt64(input.uint16()) << 16 | UInt64(input.uint16()))

    let digits = Array("0123456789ABCDEF".utf8)
    var hashes = Set<[UInt8]>()
    while hashes.count < lineCount {
        // Clustered prefixes now and then, so that neighbouring lines share long prefixes.
        let shared = random.below(4) == 0 ? 6 : 0
        var hash = [UInt8](repeating: digits[1], count: 40)
        var bits = random.next()
        for i in shared..<40 {
            if i % 16 == 0 { bits = random.next() }
            hash[i] = digits[Int(bits & 15)]; bits >>= 4
        }
        hashes.insert(hash)
    }
    let sorted = hashes.sorted { $0.lexicographicallyPrecedes($1) }
    var counts: [[UInt8]: Int] = [:]
    var file: [UInt8] = []
    file.reserveCapacity(lineCount * 52)
    for (index, hash) in sorted.enumerated() {
        let count = random.below(3) == 0 ? random.below(10) : random.below(1_000_000_000)
        counts[hash] = count
        file += (lower ? hash.map(lowerCased) : hash) + [UInt8(ascii: ":")] + Array(String(count).utf8)
        if index < sorted.count - 1 || finalNewline { file += crlf ? [0x0D, 0x0A] : [0x0A] }
    }
    if damage {
        while !input.isAtEnd {
            let at = Int(input.uint16()) * 7 % file.count
            file[at] = input.byte()
        }
    }
    guard write(file) else { return 0 }

    let searched: PwnedPasswordsFile
    do { searched = try PwnedPasswordsFile(path: path) } catch {
        invariant(damage, "a well-formed file was refused: \(error)")
        return 0
    }
    // Lookups: some lines of the file, some hashes that are not in it.
    var targets: [[UInt8]] = (0..<6).map { _ in sorted[random.below(sorted.count)] }
    targets += [sorted.first!, sorted.last!]
    targets += (0..<6).map { _ in (0..<40).map { _ in Array("0123456789ABCDEF".utf8)[random.below(16)] } }
    targets.append([UInt8](repeating: UInt8(ascii: "0"), count: 40))
    targets.append([UInt8](repeating: UInt8(ascii: "F"), count: 40))
    let hash = PasswordHash(password: UnsafeRawBufferPointer(start: nil, count: 0))
    for target in targets {
        hash.hex.withUnsafeMutableBytes { $0.copyBytes(from: target) }
        do {
            let seen = try searched.timesSeen(hash)
            if !damage { invariant(seen == (counts[target] ?? 0), "the search answered \(seen), the file says \(counts[target] ?? 0)") }
        } catch {
            invariant(damage, "a search of a well-formed file failed: \(error)")
            invariant(error is PasswordFileError, "the search threw \(type(of: error))")
        }
    }
    return 0
}

private func lowerCased(_ b: UInt8) -> UInt8 { (0x41...0x46).contains(b) ? b + 0x20 : b }

private func write(_ bytes: [UInt8]) -> Bool {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    return bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress!, $0.count) } == bytes.count
}

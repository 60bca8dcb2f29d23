@testable import PwnVaultCore
import TestSupport
import XCTest

/// `DecimalDigits` writes what `String(_:)` writes, at the edges of every digit count.
final class DecimalDigitsTests: XCTestCase {
    func text(_ n: UInt) -> String {
        let count = DecimalDigits.count(n)
        return String(unsafeUninitializedCapacity: count) { buffer in
            DecimalDigits.write(n, into: UnsafeMutableRawBufferPointer(buffer))
            return count
        }
    }

    func testEveryPowerOfTenAndItsNeighboursAndTheLargest() {
        var edges: [UInt] = [0, 1, UInt.max, UInt.max - 1]
        var power: UInt = 1
        while power <= UInt.max / 10 { power *= 10; edges += [power - 1, power, power + 1] }
        for n in edges {
            XCTAssertEqual(DecimalDigits.count(n), String(n).count, "\(n)")
            XCTAssertEqual(text(n), String(n))
        }
    }

    func testSeededRandomValues() {
        var g = SplitMix64(seed: 10)
        for _ in 0..<10_000 {
            let n = UInt(truncatingIfNeeded: g.next()) >> (g.next() % 64)
            XCTAssertEqual(text(n), String(n))
        }
    }
}

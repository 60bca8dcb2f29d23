/// 1234567 → "1,234,567": counts of accounts and of password sightings, the way people read them.
func thousands<N: BinaryInteger>(_ n: N) -> String {
    let digits = String(n.magnitude)
    var out = ""
    for (i, ch) in digits.enumerated() {
        if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
        out.append(ch)
    }
    return (n < 0 ? "-" : "") + out
}

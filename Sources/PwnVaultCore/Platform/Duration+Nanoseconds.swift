extension Duration {
    /// The whole duration in nanoseconds, saturating at `Int64.max`.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (ns, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return ns.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
    }
}

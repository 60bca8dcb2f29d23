/// One finished lookup of a `CheckScheduler` run, delivered as soon as it is final.
public struct ScheduledResult<Item: Sendable, Value: Sendable>: Sendable {
    /// The item as given.
    public let item: Item
    /// Its position in the list the run was given.
    public let index: Int
    /// The value, or why the lookup failed after its retries.
    public let result: Result<Value, HIBPError>
    /// How many requests it took (1 when the first succeeded).
    public let attempts: Int

    public init(item: Item, index: Int, result: Result<Value, HIBPError>, attempts: Int) {
        self.item = item; self.index = index; self.result = result; self.attempts = attempts
    }
}

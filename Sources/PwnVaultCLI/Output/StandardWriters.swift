import PwnVaultCore

/// The process's own stdout and stderr, as the writers a `Console` is built with: the one place the
/// command-line layer hands text to the standard streams.
enum StandardWriters {
    /// stdout; a failed write (other than a broken pipe) is recorded in `failure`.
    static func out(recordingIn failure: OutputFailure) -> @Sendable (String) -> Void {
        { failure.record(StandardStream.write($0, to: 1)) }
    }

    /// stderr.
    static let err: @Sendable (String) -> Void = { StandardStream.write($0, to: 2) }
}

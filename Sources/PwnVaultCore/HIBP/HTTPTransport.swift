/// Sends one HTTP request and returns the whole response. `CurlTransport` is the real one;
/// tests may use an in-memory one for the logic above the wire.
///
/// Implementations throw `HTTPTransportError` for failures below HTTP (a status, even 500, is a
/// response, not an error) and `CancellationError` when the calling task is cancelled.
public protocol HTTPTransport: Sendable {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}

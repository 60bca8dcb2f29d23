import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Dispatch

/// The real `HTTPTransport`, on `URLSession` (libcurl on Linux).
///
/// - The body is capped (default 4 MiB): a declared `Content-Length` over the cap aborts at the
///   headers, and a streamed body aborts as soon as it passes the cap; nothing more is downloaded.
/// - Each request has a total deadline (default 30 s), not just an idle timeout.
/// - Privacy: an ephemeral session, no cache, no cookies, no credential store, and redirects are
///   not followed (a redirect would carry the API key header to wherever it points); a 3xx comes
///   back as a response.
/// - Header names in responses are lower-cased.
/// - The API key leaves `SecretBytes` only here, as the header value Foundation needs (a `String`
///   that Foundation and libcurl own until the request completes; it cannot be wiped).
public final class URLSessionTransport: HTTPTransport, @unchecked Sendable {
    /// 4 MiB: four times the full breach catalog.
    public static let defaultMaxBodyBytes = 4 << 20
    public static let defaultTimeout: Duration = .seconds(30)

    /// The largest body accepted, in bytes.
    public let maxBodyBytes: Int
    /// The default deadline of a request whose `timeout` is nil.
    public let timeout: Duration
    private let session: URLSession
    private let delegate: TransferDelegate

    /// - Parameters:
    ///   - maxConnectionsPerHost: how many requests may be in flight to one host (the check
    ///     scheduler keeps at most 16).
    public init(maxBodyBytes: Int = URLSessionTransport.defaultMaxBodyBytes,
                timeout: Duration = URLSessionTransport.defaultTimeout,
                maxConnectionsPerHost: Int = 16) {
        self.maxBodyBytes = max(0, maxBodyBytes)
        self.timeout = timeout
        let config = URLSessionConfiguration.ephemeral
        config.urlCache = nil
        config.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        config.httpCookieStorage = nil
        config.httpShouldSetCookies = false
        config.httpCookieAcceptPolicy = .never
        config.urlCredentialStorage = nil
        config.httpMaximumConnectionsPerHost = max(1, maxConnectionsPerHost)
        // Each request carries its own deadline (below); the session's must not cut a longer one short.
        config.timeoutIntervalForRequest = Self.seconds(timeout)
        config.timeoutIntervalForResource = 24 * 3600
        let queue = OperationQueue()
        queue.name = "pwnvault.http"
        queue.maxConcurrentOperationCount = 1
        delegate = TransferDelegate()
        session = URLSession(configuration: config, delegate: delegate, delegateQueue: queue)
    }

    deinit { session.invalidateAndCancel() }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let scheme = request.url.scheme?.lowercased(), scheme == "https" || scheme == "http" else {
            throw HTTPTransportError.invalidRequest(reason: "only http and https addresses are supported")
        }
        let deadline = request.timeout ?? timeout
        var wire = URLRequest(url: request.url)
        wire.httpMethod = request.method
        wire.timeoutInterval = Self.seconds(deadline)
        wire.cachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        wire.httpShouldHandleCookies = false
        for (name, value) in request.headers {
            guard Self.isSafeHeader(name: name, value: Array(value.utf8)) else {
                throw HTTPTransportError.invalidRequest(reason: "a header field holds characters http does not allow")
            }
            wire.setValue(value, forHTTPHeaderField: name)
        }
        for (name, secret) in request.secretHeaders {
            let safe = secret.withUnsafeBytes { Self.isSafeHeader(name: name, value: Array($0)) }
            guard safe else {
                throw HTTPTransportError.invalidRequest(reason: "a secret header field holds characters http does not allow")
            }
            wire.setValue(secret.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }, forHTTPHeaderField: name)
        }

        let handle = CancellationHandle()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponse, Error>) in
                let task = session.dataTask(with: wire)
                delegate.register(task, limit: maxBodyBytes, continuation: continuation)
                guard handle.attach(task) else {
                    // Never resumed, so URLSession would never report it: end it here.
                    delegate.discard(task)?.resume(throwing: CancellationError())
                    return
                }
                task.resume()
                let delegate = self.delegate
                DispatchQueue.global().asyncAfter(deadline: .now() + Self.seconds(deadline)) { [weak task] in
                    guard let task, delegate.fail(task, with: .timedOut) else { return }
                    task.cancel()
                }
            }
        } onCancel: {
            handle.cancel(delegate: delegate)
        }
    }

    /// Why this transport cannot send to `url`, or nil when it can.
    ///
    /// swift-corelibs-foundation (Swift 6.0 to at least 6.3) fails every request to a host written as an
    /// IPv6 literal (`http://[::1]:8080/`) with NSURLErrorBadURL (-1000) before connecting: it compares
    /// libcurl's reading of the host (`[::1]`) with `URL.host` (`::1`) and refuses when they differ
    /// (swiftlang/swift-corelibs-foundation#5496, fixed upstream by #5498). Settings refuse such an
    /// address when they are read, with a way around it, instead of a network error at the first check.
    /// Remove this once the toolchain pwnvault is built with carries the fix.
    public static func cannotReachReason(_ url: URL) -> String? {
        let text = url.absoluteString
        guard let schemeEnd = text.range(of: "://"), text[schemeEnd.upperBound...].hasPrefix("[") else { return nil }
        return "this build's networking (Swift's URLSession) cannot connect to an IPv6 address written in brackets"
    }

    static func seconds(_ d: Duration) -> TimeInterval {
        let c = d.components
        return max(0.001, Double(c.seconds) + Double(c.attoseconds) / 1e18)
    }

    /// RFC 9110 token names and visible-ASCII-or-space values: no CR/LF header injection, no NUL.
    static func isSafeHeader(name: String, value: [UInt8]) -> Bool {
        let tokenExtras = Set("!#$%&'*+-.^_`|~".utf8)
        guard !name.isEmpty, name.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A)
            || ($0 >= 0x61 && $0 <= 0x7A) || tokenExtras.contains($0) }) else { return false }
        return value.allSatisfy { $0 == 0x20 || $0 == 0x09 || ($0 >= 0x21 && $0 <= 0x7E) }
    }
}

/// Why a transfer ended before URLSession finished it on its own.
enum TransferAbort: Sendable {
    case cancelled, timedOut, tooLarge(limit: Int)
}

/// Links a Swift task's cancellation to the URLSession task it started, whichever comes first.
private final class CancellationHandle: @unchecked Sendable {
    private let lock = NSLock()
    private var task: URLSessionTask?
    private var cancelled = false

    /// Records the task; false when the Swift task was already cancelled.
    func attach(_ task: URLSessionTask) -> Bool {
        lock.lock(); defer { lock.unlock() }
        self.task = task
        return !cancelled
    }

    func cancel(delegate: TransferDelegate) {
        lock.lock()
        cancelled = true
        let task = self.task
        lock.unlock()
        if let task, delegate.fail(task, with: .cancelled) { task.cancel() }
    }
}

/// The session delegate: collects each task's body under its cap, refuses redirects, and resumes
/// each waiting continuation exactly once.
private final class TransferDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private final class Transfer {
        let limit: Int
        var body = Data()
        var abort: TransferAbort?
        let continuation: CheckedContinuation<HTTPResponse, Error>
        init(limit: Int, continuation: CheckedContinuation<HTTPResponse, Error>) {
            self.limit = limit; self.continuation = continuation
        }
    }

    private let lock = NSLock()
    private var transfers: [Int: Transfer] = [:]

    func register(_ task: URLSessionTask, limit: Int, continuation: CheckedContinuation<HTTPResponse, Error>) {
        lock.lock(); defer { lock.unlock() }
        transfers[task.taskIdentifier] = Transfer(limit: limit, continuation: continuation)
    }

    /// Forgets a task that was never started; returns its continuation for the caller to resume.
    func discard(_ task: URLSessionTask) -> CheckedContinuation<HTTPResponse, Error>? {
        lock.lock(); defer { lock.unlock() }
        return transfers.removeValue(forKey: task.taskIdentifier)?.continuation
    }

    /// Marks the transfer as aborted for `reason` unless it already ended or was aborted;
    /// true when the caller should now cancel the URLSession task.
    @discardableResult
    func fail(_ task: URLSessionTask, with reason: TransferAbort) -> Bool {
        lock.lock(); defer { lock.unlock() }
        guard let t = transfers[task.taskIdentifier], t.abort == nil else { return false }
        t.abort = reason
        return true
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        lock.lock()
        var allow = true
        if let t = transfers[dataTask.taskIdentifier], response.expectedContentLength > Int64(t.limit) {
            if t.abort == nil { t.abort = .tooLarge(limit: t.limit) }
            allow = false
        }
        lock.unlock()
        completionHandler(allow ? .allow : .cancel)
        // swift-corelibs-foundation does not stop the transfer on `.cancel` alone.
        if !allow { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.lock()
        var cancel = false
        if let t = transfers[dataTask.taskIdentifier], t.abort == nil {
            if t.body.count + data.count > t.limit {
                t.abort = .tooLarge(limit: t.limit)
                t.body = Data()
                cancel = true
            } else {
                t.body.append(data)
            }
        }
        lock.unlock()
        if cancel { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        lock.lock()
        let t = transfers.removeValue(forKey: task.taskIdentifier)
        lock.unlock()
        guard let t else { return }
        switch t.abort {
        case .cancelled?: t.continuation.resume(throwing: CancellationError()); return
        case .timedOut?: t.continuation.resume(throwing: HTTPTransportError.timeout); return
        case let .tooLarge(limit)?: t.continuation.resume(throwing: HTTPTransportError.bodyTooLarge(limit: limit)); return
        case nil: break
        }
        if let error {
            t.continuation.resume(throwing: Self.map(error))
            return
        }
        guard let http = task.response as? HTTPURLResponse else {
            t.continuation.resume(throwing: HTTPTransportError.connection(reason: "the server sent no http response"))
            return
        }
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let k = key as? String { headers[k.lowercased()] = value as? String ?? "\(value)" }
        }
        t.continuation.resume(returning: HTTPResponse(status: http.statusCode, headers: headers, body: t.body))
    }

    /// Fixed phrases only: `localizedDescription` may quote the URL, and the URL holds the account.
    static func map(_ error: Error) -> Error {
        guard let e = error as? URLError else {
            return HTTPTransportError.connection(reason: "network error")
        }
        switch e.code {
        case .timedOut: return HTTPTransportError.timeout
        case .cancelled: return CancellationError()
        case .cannotFindHost, .dnsLookupFailed: return HTTPTransportError.unreachable(reason: "the host name could not be resolved")
        case .cannotConnectToHost: return HTTPTransportError.unreachable(reason: "the connection was refused")
        case .networkConnectionLost: return HTTPTransportError.connection(reason: "the connection was lost")
        case .notConnectedToInternet: return HTTPTransportError.unreachable(reason: "not connected to a network")
        case .secureConnectionFailed: return HTTPTransportError.unreachable(reason: "the tls handshake failed")
        case .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
             .serverCertificateHasUnknownRoot, .clientCertificateRejected, .clientCertificateRequired:
            return HTTPTransportError.unreachable(reason: "the server's certificate is not trusted")
        case .badServerResponse, .cannotParseResponse: return HTTPTransportError.connection(reason: "the server's answer was not valid http")
        case .dataLengthExceedsMaximum: return HTTPTransportError.bodyTooLarge(limit: 0)
        default: return HTTPTransportError.connection(reason: "network error (code \(e.code.rawValue))")
        }
    }
}

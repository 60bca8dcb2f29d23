// The only file that imports the HTTP shim. libcurl is loaded (dlopen) by the shim at the first
// request, so commands that never go online never map it.
internal import CHTTPShim
import FoundationEssentials

/// The real `HTTPTransport`: libcurl (Debian's libcurl4), loaded at the first request.
///
/// - The body is capped (default 4 MiB): a declared `Content-Length` over the cap aborts at the
///   headers, and a streamed body aborts as soon as it passes the cap; nothing more is downloaded.
/// - Each request has a total deadline (default 30 s), connecting included.
/// - Privacy: no cache, no cookies, no netrc, no credential store, and redirects are not followed
///   (a redirect would carry the API key header to wherever it points); a 3xx comes back as a
///   response. Only http and https. TLS peer and host verification stay on (libcurl's defaults).
///   Proxies are taken from the environment the way libcurl reads it (`http_proxy`, `HTTPS_PROXY`,
///   `ALL_PROXY`, `NO_PROXY`).
/// - Connections are kept and reused between requests (a small pool of libcurl handles).
/// - Header names in responses are lower-cased.
/// - The API key leaves `SecretBytes` only here, as a header line copied into C memory that the shim
///   wipes when the transfer ends (libcurl's own copy of the header list is freed, not wiped).
public struct CurlTransport: HTTPTransport {
    /// 4 MiB: four times the full breach catalog.
    public static let defaultMaxBodyBytes = 4 << 20
    public static let defaultTimeout: Duration = .seconds(30)

    /// The largest body accepted, in bytes.
    public let maxBodyBytes: Int
    /// The default deadline of a request whose `timeout` is nil.
    public let timeout: Duration

    /// One per process (`CLI`): a request that needs a shorter deadline or a smaller body says so
    /// itself (`HTTPRequest.timeout`, `.maxBodyBytes`).
    public init(maxBodyBytes: Int = CurlTransport.defaultMaxBodyBytes, timeout: Duration = CurlTransport.defaultTimeout) {
        self.maxBodyBytes = max(0, maxBodyBytes)
        self.timeout = timeout
    }

    /// True once libcurl has been loaded into this process.
    public static var isLoaded: Bool { pwv_http_loaded() != 0 }

    /// Starts loading libcurl on a thread of its own and returns at once: for a command that will go
    /// online but has other work first (opening the vault), so the two overlap.
    public static func preload() { pwv_http_preload() }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let scheme = request.url.scheme?.lowercased(), scheme == "https" || scheme == "http" else {
            throw HTTPTransportError.invalidRequest(reason: phrase("only http and https addresses are supported"))
        }
        guard request.method == "GET" else {
            throw HTTPTransportError.invalidRequest(reason: phrase("only GET requests are supported"))
        }
        var lines: [[UInt8]] = []
        defer { for i in lines.indices { lines[i].withUnsafeMutableBufferPointer { $0.initialize(repeating: 0) } } }
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
            guard Self.isSafeHeader(name: name, value: Array(value.utf8)) else {
                throw HTTPTransportError.invalidRequest(reason: phrase("a header field holds characters http does not allow"))
            }
            lines.append(Self.headerLine(name, Array(value.utf8)))
        }
        for (name, secret) in request.secretHeaders.sorted(by: { $0.key < $1.key }) {
            let line: [UInt8]? = secret.withUnsafeBytes { bytes in
                Self.isSafeHeader(name: name, value: Array(bytes)) ? Self.headerLine(name, Array(bytes)) : nil
            }
            guard let line else {
                throw HTTPTransportError.invalidRequest(reason: phrase("a secret header field holds characters http does not allow"))
            }
            lines.append(line)
        }
        let deadline = request.timeout ?? timeout
        let milliseconds = max(1, deadline.components.seconds * 1000 + deadline.components.attoseconds / 1_000_000_000_000_000)
        // The request's own cap, when it has one, within the transport's.
        let limit = request.maxBodyBytes.map { min(max(0, $0), maxBodyBytes) } ?? maxBodyBytes
        let transfer: OpaquePointer? = request.url.absoluteString.withCString { url in
            Self.withCStrings(lines) { pointers in
                pwv_http_new(url, pointers.baseAddress, pointers.count, Int(milliseconds), limit)
            }
        }
        guard let transfer else { throw HTTPTransportError.connection(reason: phrase("out of memory")) }
        if let gap = request.wireSpacing {
            pwv_http_set_gap(transfer, gap.components.seconds * 1_000_000_000 + gap.components.attoseconds / 1_000_000_000)
        }
        let pending = PendingTransfer(transfer, limit: limit)
        defer { pwv_http_release(transfer) }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponse, Error>) in
                pending.continuation.withLock { $0 = continuation }
                pwv_http_start(transfer, { transfer, context in
                    guard let transfer, let context else { return }
                    let pending = Unmanaged<PendingTransfer>.fromOpaque(context).takeRetainedValue()
                    let result = CurlTransport.result(of: transfer, limit: pending.limit)
                    pending.continuation.withLock { $0.take() }?.resume(with: result)
                }, Unmanaged.passRetained(pending).toOpaque())
            }
        } onCancel: {
            pending.cancel()
        }
    }

    // MARK: the parts

    /// "name: value", or "name;" for an empty value (libcurl's way to send a header with no value;
    /// "name:" would remove it).
    static func headerLine(_ name: String, _ value: [UInt8]) -> [UInt8] {
        value.isEmpty ? Array(name.utf8) + [UInt8(ascii: ";")] : Array(name.utf8) + Array(": ".utf8) + value
    }

    static func withCStrings<R>(_ lines: [[UInt8]], _ body: (UnsafeBufferPointer<UnsafePointer<CChar>?>) -> R) -> R {
        var copies = lines.map { line -> UnsafeMutablePointer<CChar> in
            let p = UnsafeMutablePointer<CChar>.allocate(capacity: line.count + 1)
            line.withUnsafeBufferPointer { src in
                src.withMemoryRebound(to: CChar.self) { p.initialize(from: $0.baseAddress!, count: line.count) }
            }
            p[line.count] = 0
            return p
        }
        defer {
            for (p, line) in zip(copies, lines) { p.initialize(repeating: 0, count: line.count + 1); p.deallocate() }
            copies.removeAll()
        }
        let pointers = copies.map { UnsafePointer<CChar>?($0) }
        return pointers.withUnsafeBufferPointer(body)
    }

    static func result(of transfer: OpaquePointer, limit: Int) -> Result<HTTPResponse, Error> {
        let outcome = Int(pwv_http_outcome(transfer))
        guard outcome == PWV_HTTP_OK else {
            return .failure(map(outcome, curlCode: Int(pwv_http_curl_code(transfer)), limit: limit))
        }
        var length = 0
        let body = pwv_http_body(transfer, &length).map { Data(bytes: $0, count: length) } ?? Data()
        var headLength = 0
        let head = pwv_http_headers(transfer, &headLength).map {
            String(decoding: UnsafeRawBufferPointer(start: $0, count: headLength), as: UTF8.self)
        } ?? ""
        return .success(HTTPResponse(status: Int(pwv_http_status(transfer)), headers: parseHeaders(head), body: body))
    }

    /// Header lines after the status line: names lower-cased, repeated names joined with ", ".
    static func parseHeaders(_ head: String) -> [String: String] {
        var headers: [String: String] = [:]
        for line in head.split(whereSeparator: { $0 == "\r\n" || $0 == "\n" || $0 == "\r" }).dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingScalars(where: { $0 == " " || $0 == "\t" })   // HTTP's optional white space
            if let old = headers[name] { headers[name] = old + ", " + value } else { headers[name] = value }
        }
        return headers
    }

    /// Fixed phrases only: libcurl's own messages may quote the URL, and the URL holds the account.
    static func map(_ outcome: Int, curlCode: Int, limit: Int) -> Error {
        switch outcome {
        case PWV_HTTP_TIMEOUT: return HTTPTransportError.timeout
        case PWV_HTTP_TOO_LARGE: return HTTPTransportError.bodyTooLarge(limit: limit)
        case PWV_HTTP_CANCELLED: return CancellationError()
        case PWV_HTTP_DNS: return HTTPTransportError.unreachable(reason: phrase("the host name could not be resolved"))
        case PWV_HTTP_REFUSED: return HTTPTransportError.unreachable(reason: phrase("the connection was refused"))
        case PWV_HTTP_TLS: return HTTPTransportError.unreachable(reason: phrase("the tls handshake failed"))
        case PWV_HTTP_CERTIFICATE: return HTTPTransportError.unreachable(reason: phrase("the server's certificate is not trusted"))
        case PWV_HTTP_LOST: return HTTPTransportError.connection(reason: phrase("the connection was lost"))
        case PWV_HTTP_NOT_HTTP: return HTTPTransportError.connection(reason: phrase("the server's answer was not valid http"))
        case PWV_HTTP_PROXY: return HTTPTransportError.unreachable(reason: phrase("the proxy could not be used"))
        case PWV_HTTP_UNAVAILABLE: return HTTPTransportError.unreachable(reason: phrase("libcurl (libcurl4) could not be loaded"))
        case PWV_HTTP_INVALID: return HTTPTransportError.invalidRequest(reason: phrase("the address cannot be requested"))
        default: return HTTPTransportError.connection(reason: "network error (code \(curlCode))")
        }
    }

    /// RFC 9110 token names and visible-ASCII-or-space values: no CR/LF header injection, no NUL.
    static func isSafeHeader(name: String, value: [UInt8]) -> Bool {
        let tokenExtras = Array("!#$%&'*+-.^_`|~".utf8)
        guard !name.isEmpty, name.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A)
            || ($0 >= 0x61 && $0 <= 0x7A) || tokenExtras.contains($0) }) else { return false }
        return value.allSatisfy { $0 == 0x20 || $0 == 0x09 || ($0 >= 0x21 && $0 <= 0x7E) }
    }
}

/// One transfer between Swift and the shim: the continuation to resume once, and the way to cancel.
/// Sendable: its mutable state is behind `Locked`; the transfer pointer is only passed to the shim's
/// thread-safe `pwv_http_cancel`, and stays valid until `send` releases it, after which no
/// cancellation handler can run.
private final class PendingTransfer: Sendable {
    let continuation = Locked<CheckedContinuation<HTTPResponse, Error>?>(nil)
    nonisolated(unsafe) let transfer: OpaquePointer   // safe: see the type's comment
    let limit: Int

    init(_ transfer: OpaquePointer, limit: Int) { self.transfer = transfer; self.limit = limit }

    func cancel() { pwv_http_cancel(transfer) }
}

import FoundationEssentials

/// A complete HTTP response: status, headers (names lower-cased) and a body no larger than the
/// transport's cap.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    /// Header fields with lower-cased names.
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        self.body = body
    }

    /// The value of header `name`, looked up case-insensitively.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// A body holds breach names, paste ids and stealer-log websites of an account: a response prints as
/// its status and size.
extension HTTPResponse: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "HTTPResponse(\(status), \(body.count) bytes)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["status": status, "bodyCount": body.count]) }
}

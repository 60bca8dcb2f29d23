/// Just enough XML for KeePass 2's export: elements, attributes, text, the five named entities and
/// numeric references, CDATA, comments and the XML declaration. A DOCTYPE is refused (no KeePass
/// export has one, and entity definitions are how XML files blow up), as is nesting deeper than
/// `maxDepth`. Text is kept only inside elements that have no child elements (KeePass keeps all its
/// values so).
struct MiniXMLElement {
    let name: String
    let line: Int
    var attributes: [String: String] = [:]
    var children: [MiniXMLElement] = []
    var text = ""

    /// The first child called `name`.
    func child(_ name: String) -> MiniXMLElement? { children.first { $0.name == name } }
    func children(_ name: String) -> [MiniXMLElement] { children.filter { $0.name == name } }
}

enum MiniXML {
    static let maxDepth = 200

    /// The root element of `input`, or the line where it stops being XML this reader accepts.
    static func parse(_ input: [UInt8]) -> Result<MiniXMLElement, LoginReadError> {
        var i = (input.count >= 3 && input[0] == 0xEF && input[1] == 0xBB && input[2] == 0xBF) ? 3 : 0
        var line = 1
        var stack: [MiniXMLElement] = []
        var root: MiniXMLElement?
        var textBytes: [UInt8] = []
        func fail() -> Result<MiniXMLElement, LoginReadError> { .failure(.invalidXML(line: line)) }
        func advance(_ n: Int) {
            for k in i..<min(input.count, i + n) where input[k] == 0x0A { line += 1 }
            i = min(input.count, i + n)
        }
        func starts(_ s: String) -> Bool {
            let u = Array(s.utf8)
            return i + u.count <= input.count && Array(input[i..<(i + u.count)]) == u
        }
        /// Moves past the next `end`; false when there is none.
        func skip(past end: String) -> Bool {
            let u = Array(end.utf8)
            var k = i
            while k + u.count <= input.count {
                if input[k] == u[0] && Array(input[k..<(k + u.count)]) == u { advance(k + u.count - i); return true }
                k += 1
            }
            return false
        }
        func isNameByte(_ b: UInt8) -> Bool {
            b >= 0x80 || (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
                || b == UInt8(ascii: "_") || b == UInt8(ascii: "-") || b == UInt8(ascii: ".") || b == UInt8(ascii: ":")
        }
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        func skipSpace() { while i < input.count, isSpace(input[i]) { advance(1) } }
        func name() -> String? {
            let start = i
            while i < input.count, isNameByte(input[i]) { i += 1 }
            return i > start ? String(decoding: input[start..<i], as: UTF8.self) : nil
        }
        func flushText() -> Bool {
            defer { textBytes.removeAll(keepingCapacity: true) }
            guard !stack.isEmpty else { return textBytes.allSatisfy(isSpace) }
            guard let decoded = decodeEntities(textBytes) else { return false }
            stack[stack.count - 1].text += decoded
            return true
        }
        while i < input.count {
            let b = input[i]
            if b != UInt8(ascii: "<") {
                if b == 0 { return fail() }
                if b == 0x0A { line += 1 }
                textBytes.append(b); i += 1; continue
            }
            if starts("<![CDATA[") {
                advance(9)
                let start = i
                guard skip(past: "]]>") else { return fail() }
                guard !stack.isEmpty else { return fail() }
                guard flushText() else { return fail() }
                stack[stack.count - 1].text += String(decoding: input[start..<(i - 3)], as: UTF8.self)
                continue
            }
            guard flushText() else { return fail() }
            if starts("<!--") { guard skip(past: "-->") else { return fail() }; continue }
            if starts("<?") { guard skip(past: "?>") else { return fail() }; continue }
            if starts("<!") { return fail() }   // DOCTYPE and other declarations
            if starts("</") {
                advance(2)
                guard let n = name(), var element = stack.popLast(), element.name == n else { return fail() }
                skipSpace()
                guard i < input.count, input[i] == UInt8(ascii: ">") else { return fail() }
                advance(1)
                if !element.children.isEmpty { element.text = "" }
                if stack.isEmpty {
                    guard root == nil else { return fail() }
                    root = element
                } else {
                    stack[stack.count - 1].children.append(element)
                }
                continue
            }
            advance(1)
            guard root == nil, let n = name() else { return fail() }
            var element = MiniXMLElement(name: n, line: line)
            while true {
                skipSpace()
                guard i < input.count else { return fail() }
                if input[i] == UInt8(ascii: "/") || input[i] == UInt8(ascii: ">") { break }
                guard let attribute = name() else { return fail() }
                skipSpace()
                guard i < input.count, input[i] == UInt8(ascii: "=") else { return fail() }
                advance(1); skipSpace()
                guard i < input.count, input[i] == UInt8(ascii: "\"") || input[i] == UInt8(ascii: "'") else { return fail() }
                let quote = input[i]
                advance(1)
                let start = i
                while i < input.count, input[i] != quote, input[i] != UInt8(ascii: "<") { advance(1) }
                guard i < input.count, input[i] == quote, let value = decodeEntities(Array(input[start..<i])) else { return fail() }
                advance(1)
                element.attributes[attribute] = value
            }
            if input[i] == UInt8(ascii: "/") {
                advance(1)
                guard i < input.count, input[i] == UInt8(ascii: ">") else { return fail() }
                advance(1)
                if stack.isEmpty { root = element } else { stack[stack.count - 1].children.append(element) }
                continue
            }
            advance(1)
            guard stack.count < maxDepth else { return fail() }
            stack.append(element)
        }
        guard stack.isEmpty, flushText(), let root else { return fail() }
        return .success(root)
    }

    /// Text with `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&#N;` and `&#xN;` replaced; nil for another
    /// entity, a broken reference, or text that is not UTF-8.
    static func decodeEntities(_ bytes: [UInt8]) -> String? {
        guard var text = String(validating: bytes, as: UTF8.self) else { return nil }
        guard text.contains("&") else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            guard let semi = rest[amp...].firstIndex(of: ";") else { return nil }
            let entity = rest[rest.index(after: amp)..<semi]
            switch entity {
            case "amp": out += "&"
            case "lt": out += "<"
            case "gt": out += ">"
            case "quot": out += "\""
            case "apos": out += "'"
            default:
                var digits = entity
                guard digits.first == "#" else { return nil }
                digits = digits.dropFirst()
                var radix = 10
                if digits.first == "x" || digits.first == "X" { radix = 16; digits = digits.dropFirst() }
                guard !digits.isEmpty, digits.count <= 8, let n = UInt32(digits, radix: radix), let scalar = Unicode.Scalar(n),
                      n != 0 else { return nil }
                out.unicodeScalars.append(scalar)
            }
            rest = rest[rest.index(after: semi)...]
        }
        out += rest
        text = out
        return text
    }
}

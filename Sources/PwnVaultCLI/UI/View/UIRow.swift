import PwnVaultCore

/// Text in one `UIStyle`.
struct UISpan: Equatable, Sendable {
    var text: String
    var style: UIStyle
    init(_ text: String, _ style: UIStyle = .plain) { self.text = text; self.style = style }
}

/// One row of the screen: spans from the left edge, at most the screen's width (`view` fits them).
struct UIRow: Equatable, Sendable {
    var spans: [UISpan]

    init(_ spans: [UISpan] = []) { self.spans = spans }
    init(_ text: String, _ style: UIStyle = .plain) { spans = [UISpan(text, style)] }

    /// A line written by the command renderers (`Console`'s styles) as spans, read once here.
    static func rendered(_ line: String) -> UIRow {
        UIRow(CellRenderer.spans(line).map { UISpan($0.text, .rendered($0.style)) })
    }

    /// What a person reads in the row.
    var text: String { spans.map(\.text).joined() }

    /// The row for the renderer.
    func cells(colors: Bool) -> [CellRenderer.Span] {
        spans.map { CellRenderer.Span($0.text, $0.style.cellStyle(colors: colors)) }
    }
}

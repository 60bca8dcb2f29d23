import PwnVaultCore

/// What a piece of the ui's screen is; `cellStyle(colors:)` says how it looks, and `CellRenderer` turns
/// that into bytes. No escape sequence travels through the ui's own text.
enum UIStyle: Equatable, Sendable {
    case plain
    /// The title bar and the status line (reverse video).
    case bar
    /// A table's header row and the notice above the status line.
    case bold
    /// The row under the cursor.
    case selected
    /// An account row with a breach (red where colours are on).
    case breached
    /// "SHARE MODE" at the end of the status line: black on yellow, whatever the theme (reverse video of
    /// yellow was white on yellow where the background is white); without colours bold reverse video.
    case shareMarker
    /// Text styled by the command renderers (`show`'s lines, a breach's details), as they style it.
    case rendered(CellRenderer.Style)

    func cellStyle(colors: Bool) -> CellRenderer.Style {
        var s = CellRenderer.Style()
        switch self {
        case .plain: break
        case .bar, .selected: s.reverse = true
        case .bold: s.bold = true
        case .breached: if colors { s.foreground = 31 }
        case .shareMarker:
            s.bold = true
            if colors { s.foreground = 30; s.background = 43 } else { s.reverse = true }
        case let .rendered(style): s = style
        }
        return s
    }
}

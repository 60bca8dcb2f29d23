/// A selection in a list shown `height` rows at a time: which row is selected and which is on top.
struct ListCursor: Equatable {
    var selected = 0
    var top = 0

    mutating func move(_ delta: Int, count: Int, height: Int) {
        guard count > 0 else { selected = 0; top = 0; return }
        selected = min(max(0, selected + delta), count - 1)
        keepVisible(count: count, height: height)
    }

    mutating func keepVisible(count: Int, height: Int) {
        selected = min(max(0, selected), max(0, count - 1))
        let h = max(1, height)
        if selected < top { top = selected }
        if selected >= top + h { top = selected - h + 1 }
        top = min(max(0, top), max(0, count - h))
    }

    /// The top row to show for `count` rows `height` at a time, without changing the cursor (the view's).
    func visibleTop(count: Int, height: Int) -> Int {
        var c = self
        c.keepVisible(count: count, height: height)
        return c.top
    }
}

/// What a draw that ran was worth, judged against the table's own record of what each cell shows — the
/// row *and* the content version it was configured for — never against `currentIndexPath`, which guards
/// compare and some strategies clear.
enum DrawVerdict: Sendable, Equatable {
  /// The cell shows this row's current content and the row is on screen.
  case fresh
  /// The cell now shows another row, or this row's newer content: the draw put wrong (old) content in it.
  case stale
  /// The cell still shows this row, but the row is off screen: wasted work nobody sees.
  case offscreen
}

/// Judges draws and evictions; pure, so the metric tests can feed it hand-built cases.
enum DrawJudge {
  /// The verdict on a draw of `row`'s content `version` into a cell configured for `cellRow` /
  /// `cellVersion`, with `visible` on screen.
  static func judge(
    row: Int, version: Int, cellRow: Int?, cellVersion: Int, visible: ClosedRange<Int>
  ) -> DrawVerdict {
    guard cellRow == row, cellVersion == version else { return .stale }
    return visible.contains(row) ? .fresh : .offscreen
  }

  /// Whether dropping a queued draw (a capacity eviction) leaves a visible cell blank: the row is on
  /// screen and its cell still shows that row's content.
  static func isVisibleEviction(
    row: Int, version: Int, cellRow: Int?, cellVersion: Int, visible: ClosedRange<Int>
  ) -> Bool {
    judge(row: row, version: version, cellRow: cellRow, cellVersion: cellVersion, visible: visible) == .fresh
  }
}

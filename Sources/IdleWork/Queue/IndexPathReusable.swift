import Foundation

/// A reusable view (a table or collection view cell) that knows which index path it currently shows.
///
/// ``IdleQueue/addTask(for:at:discardable:_:)`` holds the cell weakly and, when the task's turn comes, skips the task
/// as stale if the cell is gone or `currentIndexPath` no longer equals the task's index path: the cell was
/// reused for another row, so drawing into it would show the wrong content. This is the guard that
/// DWURunLoopWorkDistribution asked every task to write by hand.
///
/// Where UIKit exists, `UITableViewCell` and `UICollectionViewCell` already conform (the value is kept in
/// an associated object). Elsewhere any class conforms with a stored property:
///
/// ```swift
/// final class FeedCell: IndexPathReusable {
///   var currentIndexPath: IndexPath?
/// }
/// ```
///
/// Set `currentIndexPath` each time the cell is configured for a row (at the top of `cellForRowAt`);
/// ``IdleQueue/addTask(for:at:discardable:_:)`` also sets it.
@MainActor
public protocol IndexPathReusable: AnyObject {
  /// The index path this cell shows now, or `nil` if it shows none.
  var currentIndexPath: IndexPath? { get set }
}

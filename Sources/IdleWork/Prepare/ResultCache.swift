import Foundation

/// Prepared results kept by content, so that a row shown again — or reloaded with the same content — is
/// applied at once, inside `cellForRowAt`, instead of flashing blank while its result is prepared again.
///
/// Bounded by a cost in bytes (each result's size as the caller reports it); past it the least recently
/// used results go. Emptied when memory is short. Main thread only.
@MainActor
final class ResultCache {
  private struct Item {
    let value: any Sendable
    let bytes: Int
    var lastUse: UInt64
  }

  /// The most bytes kept; `0` keeps nothing.
  let limit: Int
  private var items: [PreparedContent: Item] = [:]
  private var clock: UInt64 = 0
  /// Bytes of the results kept now.
  private(set) var bytes = 0

  init(limit: Int) {
    self.limit = limit
  }

  /// The result kept for `content`, if any (it becomes the most recently used).
  func value(for content: PreparedContent) -> (any Sendable)? {
    guard !items.isEmpty, var item = items[content] else { return nil }
    clock += 1
    item.lastUse = clock
    items[content] = item
    return item.value
  }

  /// Keeps `value` for `content` (replacing an older one); one larger than the limit is not kept.
  func insert(_ value: any Sendable, bytes: Int, for content: PreparedContent) {
    guard limit > 0 else { return }
    let bytes = max(bytes, 0)
    if let old = items.removeValue(forKey: content) { self.bytes -= old.bytes }
    guard bytes <= limit else { return }
    clock += 1
    items[content] = Item(value: value, bytes: bytes, lastUse: clock)
    self.bytes += bytes
    trim()
  }

  /// Drops every result (a memory warning).
  func removeAll() {
    items = [:]
    bytes = 0
  }

  var count: Int { items.count }

  /// Drops the least recently used results until the total is within the limit.
  private func trim() {
    guard bytes > limit else { return }
    let oldestFirst = items.sorted { $0.value.lastUse < $1.value.lastUse }
    for (content, item) in oldestFirst {
      guard bytes > limit else { break }
      items[content] = nil
      bytes -= item.bytes
    }
  }
}

/// A first-in, first-out buffer with O(1) removal at the head, as `NSMutableArray` and `std::deque`
/// give the baselines (removing from the front of a Swift `Array` would cost O(n) and bias them).
struct FIFO<Element> {
  private var storage: [Element?] = []
  private var head = 0

  /// Elements held.
  var count: Int { storage.count - head }
  /// Whether nothing is held.
  var isEmpty: Bool { count == 0 }

  /// Appends at the tail.
  mutating func append(_ element: Element) { storage.append(element) }

  /// Removes and returns the head, if any.
  mutating func popFirst() -> Element? {
    guard head < storage.count else { return nil }
    let element = storage[head]
    storage[head] = nil
    head += 1
    if head == storage.count {
      storage.removeAll(keepingCapacity: true)
      head = 0
    } else if head >= 1024, head * 2 >= storage.count {
      storage.removeFirst(head)
      head = 0
    }
    return element
  }

  /// Whether any held element satisfies `predicate`, scanning from the head (a linear scan, as
  /// `-[NSMutableArray containsObject:]`).
  func contains(where predicate: (Element) -> Bool) -> Bool {
    var index = head
    while index < storage.count {
      if let element = storage[index], predicate(element) { return true }
      index += 1
    }
    return false
  }

  /// Removes everything.
  mutating func removeAll() {
    storage.removeAll()
    head = 0
  }
}

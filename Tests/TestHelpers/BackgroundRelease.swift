import Foundation

/// Hands `objects` to a new thread, which holds the only references (the caller's array is emptied) and
/// releases them one by one in a random order drawn from `seed`, while `body` repeats on this thread; returns
/// once the last one is released (`body` runs at least once, after the releases may begin).
@MainActor
package func releaseOnAnotherThread<Object: AnyObject>(
  _ objects: inout [Object], seed: UInt64, whileRepeating body: () -> Void
) {
  let handOver = HandOver(objects)
  objects = []
  let go = DispatchSemaphore(value: 0)
  let done = DispatchSemaphore(value: 0)
  Thread {
    var rest = handOver.take()
    go.wait()  // until the caller's loop begins
    var generator = SeededGenerator(seed: seed)
    while !rest.isEmpty {
      rest.swapAt(Int.random(in: 0..<rest.count, using: &generator), rest.count - 1)
      rest.removeLast()  // the last reference: the object deinitialises on this thread
    }
    done.signal()
  }.start()
  go.signal()
  repeat { body() } while done.wait(timeout: .now()) == .timedOut
}

/// Hands the objects to the releasing thread.
private final class HandOver<Object: AnyObject>: @unchecked Sendable {
  // @unchecked Sendable: the caller writes `objects` before starting the thread, which only reads it (the
  // thread's start orders the two), and nothing touches it afterwards.
  private var objects: [Object]
  init(_ objects: [Object]) { self.objects = objects }
  func take() -> [Object] {
    defer { objects = [] }
    return objects
  }
}

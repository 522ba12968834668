import Foundation

#if !canImport(ObjectiveC)
  /// Two entry points of the Swift runtime, through which a cell record reads its cell's state without a weak
  /// reference where cells are native Swift objects (Linux).
  ///
  /// A weak reference gives a native object a side table, and every retain and release of that object then
  /// takes the runtime's slow path — in the app's code too, and every `cellForRowAt` holds its cell (a retain
  /// and a release of a weakly referenced object: 39 ns against 14; the cell form of `addTask` went from 7.5×
  /// to 6.2× `Array.append` without it). `swift_tryRetain` is how the runtime loads a weak reference: it
  /// retains the object unless its deinitialisation has begun. Both are C functions of every Swift runtime,
  /// looked up by name because Swift reserves their names for the runtime. Where they cannot be found — an
  /// executable linked with the static Swift runtime (`--static-swift-stdlib`) does not export them —
  /// `available` is `nil` and records fall back to a weak reference (AddTaskCost's cell form then measured 6.6×
  /// `Array.append` instead of 5.2×).
  struct SwiftRuntime {
    typealias TryRetain = @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer?
    typealias IsDeallocating = @convention(c) (UnsafeMutableRawPointer) -> Bool

    /// Retains the object unless its deinitialisation has begun; returns it, or `nil` then.
    let tryRetain: TryRetain
    /// Whether the object's deinitialisation has begun.
    let isDeallocating: IsDeallocating

    /// The entry points of the runtime this process runs, if they can be found.
    static let available: SwiftRuntime? = {
      guard let tryRetain = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "swift_tryRetain"),
        let isDeallocating = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "swift_isDeallocating")
      else { return nil }
      return SwiftRuntime(
        tryRetain: unsafeBitCast(tryRetain, to: TryRetain.self),
        isDeallocating: unsafeBitCast(isDeallocating, to: IsDeallocating.self))
    }()
  }
#endif

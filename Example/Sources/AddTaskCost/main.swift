import Foundation
import IdleWork

#if canImport(Glibc)
  import Glibc
#endif

// AddTaskCost: what one addition costs as an app makes it, side by side with `Array.append` of the same
// capturing closure (issue 16, item 10). Release-built:
//
//   swift run -c release --package-path Example AddTaskCost [--check] [--canary] [--repetitions N]
//     [--only key|cell|joining]
//
// Each repetition creates a fresh queue (`maximumQueueLength: Int.max`, so no eviction is timed) held in a
// controller's stored property, read from there at every call as `cellForRowAt` reads it; times 20,000
// additions; then invalidates and releases the queue (untimed). The forms are timed in turn within each
// repetition, so the machine's noise falls on all of them alike, and each is compared with its own floor: an
// `Array.append` of the same closure (capturing a photo, a fresh context per call) into a fresh array.
//
// - key form: `addTask(key: row) { photo.render() }`
// - cell form: `bind(cell, to: indexPath)` then three `addTask(for: cell, at: indexPath) { cell in … }`, as
//   `cellForRowAt` does, 16 cells reused round-robin as a table reuses them
// - cell form, joining: the same three additions per cell, the cells bound beforehand (untimed)
//
// Prints, per form, the median [min–max] nanoseconds per addition over the repetitions (>= 41) and the ratio
// of the medians to the floor's. `--check` exits 1 when a ratio is over its target (key 20x, cell 40x);
// `--canary` adds a deliberate slow path to every cell-form addition (about a microsecond of hashing),
// so `--check --canary` shows the check failing. `--only` times one form alone, for a profiler.
//
// On Linux, glibc's allocator is pinned first (`pinAllocator()`): by default it moves its mmap and trim thresholds
// with the sizes of the blocks freed so far, so whether an array's growth reuses memory or faults fresh pages in
// depended on the size of the queue's entries (88-byte entries doubled every form's time, `Array.append`'s too:
// 12.6 -> 25 ns, with 8,000 more page faults per 5 repetitions; 96-byte entries did not). Pinned, every form
// reuses the process's memory, as an app's long-lived heap does.

/// A cell as a table reuses it; IdleWork needs nothing from it.
final class Cell {
  var shown = 0
  func show(_ photo: Photo) { shown &+= photo.id }
}

/// What a draw captures.
final class Photo {
  let id: Int
  init(id: Int) { self.id = id }
  func render() { blackHole(id) }
}

@inline(never) func blackHole(_ value: Int) { if value == .min { print(value) } }

/// The screen: the queue is a stored property, as an app's view controller keeps it.
@MainActor
final class Controller {
  var queue: IdleQueue?
}

struct Options {
  var check = false
  var canary = false
  var repetitions = 41
  /// `--only key|cell|joining`: time one form alone (to profile it).
  var only: String?
  static let additions = 20_000

  init(_ arguments: [String]) {
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      switch argument {
      case "--check": check = true
      case "--canary": canary = true
      case "--only":
        guard let value = rest.popFirst(), ["key", "cell", "joining"].contains(value) else { Options.usage() }
        only = value
      case "--repetitions":
        guard let value = rest.popFirst().flatMap(Int.init), value >= 1 else { Options.usage() }
        repetitions = value
      default: Options.usage()
      }
    }
  }

  static func usage() -> Never {
    print("usage: AddTaskCost [--check] [--canary] [--repetitions N] [--only key|cell|joining]")
    exit(2)
  }
}

/// Nanoseconds since an arbitrary origin.
func nanoseconds() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

@MainActor
enum AddTaskCost {
  static let cellCount = 16
  static let photos = (0..<64).map(Photo.init)
  static let paths = (0..<(Options.additions / 3 + 1)).map { IndexPath(indexes: [0, $0]) }

  /// A deliberate slow path for `--canary`: hashing that the optimiser cannot remove.
  @inline(never) static func canaryWork(_ seed: Int) {
    var hasher = Hasher()
    for value in 0..<250 { hasher.combine(seed &+ value) }
    blackHole(hasher.finalize())
  }

  static func fresh() -> IdleQueue {
    IdleQueue(configuration: .init(maximumQueueLength: .max))
  }

  /// Times `body` over the additions, with `prepare` and `release` untimed; nanoseconds per addition.
  static func time(prepare: () -> Void, _ body: () -> Void, release: () -> Void) -> Double {
    prepare()
    let start = nanoseconds()
    body()
    let elapsed = nanoseconds() - start
    release()
    return Double(elapsed) / Double(Options.additions)
  }

  static func keyForm(_ controller: Controller) -> Double {
    time(prepare: { controller.queue = fresh() }) {
      for index in 0..<Options.additions {
        let photo = photos[index & 63]
        controller.queue!.addTask(key: index) { photo.render() }
      }
    } release: {
      controller.queue?.invalidate()
      controller.queue = nil
    }
  }

  static func keyFloor() -> Double {
    var array: [@MainActor () -> Void] = []
    return time(prepare: { array = [] }) {
      for index in 0..<Options.additions {
        let photo = photos[index & 63]
        array.append { photo.render() }
      }
    } release: {
      blackHole(array.count)
      array = []
    }
  }

  /// The cell form: per row a cell (16 reused round-robin) and three additions, as `cellForRowAt` makes them;
  /// with `binds`, each row binds its cell to a new row first; without, the cells were bound (untimed) and
  /// the additions join them.
  static func cellForm(_ controller: Controller, cells: [Cell], binds: Bool, canary: Bool = false) -> Double {
    time(
      prepare: {
        let queue = fresh()
        if !binds { for (slot, cell) in cells.enumerated() { queue.bind(cell, to: paths[slot]) } }
        controller.queue = queue
      }
    ) {
      var index = 0
      var row = 0
      while index < Options.additions {
        let cell = cells[row % cellCount]
        let indexPath = paths[binds ? row : row % cellCount]
        if binds { controller.queue!.bind(cell, to: indexPath) }
        for _ in 0..<3 where index < Options.additions {
          let photo = photos[index & 63]
          if canary { canaryWork(index) }
          controller.queue!.addTask(for: cell, at: indexPath) { cell in cell.show(photo) }
          index += 1
        }
        row += 1
      }
    } release: {
      controller.queue?.invalidate()
      controller.queue = nil
    }
  }

  static func cellFloor() -> Double {
    var array: [@MainActor (Cell) -> Void] = []
    return time(prepare: { array = [] }) {
      for index in 0..<Options.additions {
        let photo = photos[index & 63]
        array.append { cell in cell.show(photo) }
      }
    } release: {
      blackHole(array.count)
      array = []
    }
  }

  struct Row {
    let name: String
    var samples: [Double] = []
    let floor: Int?  // index of the row it is compared with
    let target: Double?
  }

  static func run(_ options: Options) -> Int32 {
    let controller = Controller()
    let cells = (0..<cellCount).map { _ in Cell() }
    var rows = [
      Row(name: "Array.append, () -> Void", floor: nil, target: nil),
      Row(name: "addTask(key:)", floor: 0, target: 20),
      Row(name: "Array.append, (Cell) -> Void", floor: nil, target: nil),
      Row(name: "bind + 3 addTask(for:at:)", floor: 2, target: 40),
      Row(name: "addTask(for:at:), cell bound", floor: 2, target: 40),
    ]
    // One untimed warm-up round, then the repetitions, every form in turn.
    for repetition in -1..<options.repetitions {
      func form(_ name: String, _ body: () -> Double) -> Double { options.only.map { $0 == name } ?? true ? body() : 0 }
      let round = [
        keyFloor(), form("key") { keyForm(controller) }, cellFloor(),
        form("cell") { cellForm(controller, cells: cells, binds: true, canary: options.canary) },
        form("joining") { cellForm(controller, cells: cells, binds: false) },
      ]
      guard repetition >= 0 else { continue }
      for (slot, value) in round.enumerated() { rows[slot].samples.append(value) }
    }
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    print(
      "AddTaskCost: ns per addition, \(Options.additions) additions per repetition, \(options.repetitions) "
        + "repetitions\(options.canary ? " (canary: a slow path in every cell-form addition)" : "")")
    print("form".padding(toLength: 32, withPad: " ", startingAt: 0) + "median [min–max]        ratio  target")
    var failures: [String] = []
    for row in rows {
      let sorted = row.samples.sorted()
      let figures = String(format: "%7.1f [%.1f–%.1f]", median(sorted), sorted.first!, sorted.last!)
      var line =
        row.name.padding(toLength: 32, withPad: " ", startingAt: 0)
        + figures.padding(toLength: 24, withPad: " ", startingAt: 0)
      if let floor = row.floor, let target = row.target {
        let ratio = median(sorted) / median(rows[floor].samples)
        line += String(format: "%5.1f×  ≤ %.0f×", ratio, target)
        if ratio > target { failures.append(String(format: "%@: %.1f× > %.0f×", row.name, ratio, target)) }
      }
      print(line)
    }
    guard options.check else { return 0 }
    if failures.isEmpty {
      print("check: every ratio within its target")
      return 0
    }
    print("check FAILED: " + failures.joined(separator: "; "))
    return 1
  }
}

/// Fixes glibc's mmap and trim thresholds (see the header), so that timings do not depend on earlier frees.
func pinAllocator() {
  #if canImport(Glibc)
    // `mallopt` is in <malloc.h>, which the Glibc module does not import: looked up by name.
    typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
    let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
    let trimThreshold: Int32 = -1  // M_TRIM_THRESHOLD
    let mmapThreshold: Int32 = -3  // M_MMAP_THRESHOLD
    _ = mallopt(mmapThreshold, 32 << 20)
    _ = mallopt(trimThreshold, 64 << 20)
  #endif
}

pinAllocator()
let status = MainActor.assumeIsolated { AddTaskCost.run(Options(Array(CommandLine.arguments.dropFirst()))) }
exit(status)

import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the process spends: CPU time of every thread (`getrusage(RUSAGE_SELF)`, user + system), CPU time of
/// the calling thread (`clock_gettime(CLOCK_THREAD_CPUTIME_ID)`, read on the main thread for the main
/// thread's share), and the live threads (one folder per thread in `/proc/self/task`).
enum ProcessProbe {
  /// CPU milliseconds of all threads of the process so far.
  static func processCPUMilliseconds() -> Double {
    var usage = rusage()
    #if os(Linux)
      _ = getrusage(RUSAGE_SELF.rawValue, &usage)
    #else
      _ = getrusage(RUSAGE_SELF, &usage)
    #endif
    let user = Double(usage.ru_utime.tv_sec) * 1e3 + Double(usage.ru_utime.tv_usec) / 1e3
    let system = Double(usage.ru_stime.tv_sec) * 1e3 + Double(usage.ru_stime.tv_usec) / 1e3
    return user + system
  }

  /// CPU milliseconds of the calling thread so far.
  static func threadCPUMilliseconds() -> Double {
    var time = timespec()
    _ = clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) * 1e3 + Double(time.tv_nsec) / 1e6
  }

  /// Live threads of the process: entries of `/proc/self/task` (0 where there is no `/proc`).
  static func liveThreads() -> Int {
    var count = 0
    forEachLiveThread { _ in count += 1 }
    return count
  }

  /// The thread IDs that ``liveThreads()`` counts (empty where there is no `/proc`).
  static func liveThreadIDs() -> Set<Int> {
    var ids: Set<Int> = []
    forEachLiveThread { ids.insert($0) }
    return ids
  }

  /// Calls `body` with the ID of each entry of `/proc/self/task`, allocating nothing itself (it runs at every frame).
  private static func forEachLiveThread(_ body: (Int) -> Void) {
    #if os(Linux)
      guard let directory = opendir("/proc/self/task") else { return }
      defer { closedir(directory) }
      while let entry = readdir(directory) {
        let id = withUnsafeBytes(of: entry.pointee.d_name) { name -> Int? in
          guard let first = name.first, first != UInt8(ascii: ".") else { return nil }
          var value = 0
          for byte in name {
            guard byte != 0 else { break }
            value = value * 10 + Int(byte &- UInt8(ascii: "0"))
          }
          return value
        }
        if let id { body(id) }
      }
    #endif
  }
}

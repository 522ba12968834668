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
    #if os(Linux)
      guard let directory = opendir("/proc/self/task") else { return 0 }
      defer { closedir(directory) }
      var count = 0
      while let entry = readdir(directory) {
        let first = withUnsafeBytes(of: entry.pointee.d_name) { $0.first ?? 0 }
        if first != UInt8(ascii: ".") { count += 1 }
      }
      return count
    #else
      return 0
    #endif
  }
}

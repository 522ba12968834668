import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process's memory as the kernel sees it, for the soak test.
package enum ResidentMemory {
  /// Resident set size in bytes now (`/proc/self/statm` on Linux; `nil` where unavailable).
  package static var currentBytes: Int? {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
  }

  /// Whether AddressSanitizer is in the process: its quarantine keeps freed memory resident on purpose,
  /// so resident size says nothing about leaks there (LeakSanitizer reports those at exit instead).
  package static var isUnderAddressSanitizer: Bool { hasSymbol("__asan_init") }

  /// Whether ThreadSanitizer is in the process.
  package static var isUnderThreadSanitizer: Bool { hasSymbol("__tsan_init") }

  private static func hasSymbol(_ name: String) -> Bool {
    #if canImport(Darwin)
      return dlsym(UnsafeMutableRawPointer(bitPattern: -2), name) != nil  // RTLD_DEFAULT
    #else
      return dlsym(nil, name) != nil  // RTLD_DEFAULT
    #endif
  }

  package static func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_048_576) }
}

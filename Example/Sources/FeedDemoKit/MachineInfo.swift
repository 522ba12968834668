import Foundation

/// The machine a run was made on, for the report's footnote.
struct MachineInfo: Sendable {
  let cpuModel: String
  let processors: Int
  let unameText: String
  let loadAverage: String
  let date: String
  let swiftMode = "Swift 6, release build"

  /// Reads the current machine's description.
  static func current() -> MachineInfo {
    let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
    let model =
      cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
      .flatMap { $0.split(separator: ":", maxSplits: 1).last }
      .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown"
    let load = ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "")
      .split(separator: " ").prefix(3).joined(separator: " ")
    var name = utsname()
    uname(&name)
    func field<T>(_ value: T) -> String {
      withUnsafeBytes(of: value) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
    let unameText = [field(name.sysname), field(name.release), field(name.machine)].joined(separator: " ")
    let formatter = ISO8601DateFormatter()
    return MachineInfo(
      cpuModel: model, processors: ProcessInfo.processInfo.activeProcessorCount, unameText: unameText,
      loadAverage: load.isEmpty ? "unknown" : load, date: formatter.string(from: Date()))
  }
}

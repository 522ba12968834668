/// A minimal JSON document builder with ordered keys, so the output reads in the documented order and
/// non-finite numbers become `null` instead of invalid JSON.
indirect enum JSONValue {
  case object([(String, JSONValue)])
  case array([JSONValue])
  case string(String)
  case number(Double, digits: Int)
  case int(Int)
  case bool(Bool)
  case null

  /// A number, or `null` when `value` is `nil` or not finite.
  static func number(_ value: Double?, _ digits: Int) -> JSONValue {
    guard let value, value.isFinite else { return .null }
    return .number(value, digits: digits)
  }

  /// The document as text: an object or array of scalars (or of arrays of scalars) on one line — a metric's runs,
  /// a strategy's description — and everything else indented, so a document reads a figure per line and stays small.
  func rendered(indent: String = "") -> String {
    let inner = indent + "  "
    switch self {
    case .object(let members):
      guard !members.isEmpty else { return "{}" }
      if isLeaf {
        return "{" + members.map { "\(JSONValue.quote($0.0)): \($0.1.rendered())" }.joined(separator: ", ") + "}"
      }
      let body = members.map { "\(inner)\(JSONValue.quote($0.0)): \($0.1.rendered(indent: inner))" }
      return "{\n" + body.joined(separator: ",\n") + "\n\(indent)}"
    case .array(let items):
      guard !items.isEmpty else { return "[]" }
      if isLeaf { return "[" + items.map { $0.rendered() }.joined(separator: ", ") + "]" }
      let body = items.map { inner + $0.rendered(indent: inner) }
      return "[\n" + body.joined(separator: ",\n") + "\n\(indent)]"
    case .string(let text): return JSONValue.quote(text)
    case .number(let value, let digits): return value.isFinite ? fmt(value, digits) : "null"
    case .int(let value): return String(value)
    case .bool(let value): return value ? "true" : "false"
    case .null: return "null"
    }
  }

  /// Whether it is a scalar, or an array of scalars.
  private var isScalarOrScalars: Bool {
    switch self {
    case .object: return false
    case .array(let items): return items.allSatisfy(\.isScalar)
    default: return true
    }
  }

  private var isScalar: Bool {
    switch self {
    case .object, .array: return false
    default: return true
    }
  }

  /// Whether it goes on one line: an array of scalars, or an object of scalars and arrays of scalars.
  private var isLeaf: Bool {
    switch self {
    case .object(let members): return members.allSatisfy { $0.1.isScalarOrScalars }
    case .array(let items): return items.allSatisfy(\.isScalar)
    default: return true
    }
  }

  private static func quote(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}

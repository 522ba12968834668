/// A cell with what a real cell holds: references to other objects and a string.
final class RichCell {
  let label = Label()
  var text = String(repeating: "row", count: 8)
  let number: Int
  init(number: Int) { self.number = number }
}

/// The label a ``RichCell`` holds.
final class Label {
  var text = ""
}

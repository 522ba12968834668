/// A cell with what a real cell holds: references to other objects and a string.
package final class RichCell {
  package let label = Label()
  package var text = String(repeating: "row", count: 8)
  package let number: Int
  package init(number: Int) { self.number = number }
}

/// The label a ``RichCell`` holds.
package final class Label {
  package var text = ""
}

import IdleWork
import UIKit

/// DWURunLoopWorkDistribution's demo, ported: 399 rows of 135 pt. `cellForRowAt` sets the label at once and hands
/// the three image draws to IdleWork, one task each; a draw whose cell was configured again by its turn (reused for
/// another row, or reloaded) is skipped. Scroll fast and the label always keeps up; the images follow one per
/// run-loop pass once the scroll view stops.
final class FeedViewController: UIViewController, UITableViewDataSource, UITableViewDelegate {
  private let tableView = UITableView(frame: .zero, style: .plain)

  override func loadView() {
    tableView.dataSource = self
    tableView.delegate = self
    tableView.rowHeight = 135
    tableView.register(ImageRowCell.self, forCellReuseIdentifier: ImageRowCell.reuseIdentifier)
    view = tableView
  }

  func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
    399
  }

  func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
    let cell = tableView.dequeueReusableCell(withIdentifier: ImageRowCell.reuseIdentifier, for: indexPath)
    guard let rowCell = cell as? ImageRowCell else { return cell }
    IdleQueue.main.bind(rowCell, to: indexPath)  // a new configuration: earlier draws for this cell are stale
    rowCell.titleLabel.text = "\(indexPath.row) - Drawing index is top priority"
    for slot in rowCell.imageViews.indices {
      IdleQueue.main.addTask(for: rowCell, at: indexPath) { rowCell in
        rowCell.imageViews[slot].image = Artwork.draw(row: indexPath.row, slot: slot)
      }
    }
    return rowCell
  }

  /// A row that came on screen: if its draws were parked when it left, they run again.
  func tableView(_ tableView: UITableView, willDisplay cell: UITableViewCell, forRowAt indexPath: IndexPath) {
    IdleQueue.main.cellWillDisplay(cell, at: indexPath)
  }

  /// A row that left the screen: its queued draws wait, so they never run before the rows now on screen.
  func tableView(_ tableView: UITableView, didEndDisplaying cell: UITableViewCell, forRowAt indexPath: IndexPath) {
    IdleQueue.main.cellDidEndDisplaying(cell, at: indexPath)
  }
}

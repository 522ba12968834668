import IdleWork
import UIKit

/// DWURunLoopWorkDistribution's demo, ported: 399 rows of 135 pt. `cellForRowAt` sets the label at once and hands
/// the three image draws to IdleWork, one task each; a draw whose cell was reused for another row by its turn is
/// skipped. Scroll fast and the label always keeps up; the images follow one per run-loop pass once the finger lifts.
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
    rowCell.titleLabel.text = "\(indexPath.row) - Drawing index is top priority"
    for slot in rowCell.imageViews.indices {
      IdleQueue.main.addTask(for: rowCell, at: indexPath) { rowCell in
        rowCell.imageViews[slot].image = Artwork.draw(row: indexPath.row, slot: slot)
      }
    }
    return rowCell
  }

  /// A row that left the screen: drop its queued draws, which nobody would see, so they do not run before
  /// the rows now on screen.
  func tableView(_ tableView: UITableView, didEndDisplaying cell: UITableViewCell, forRowAt indexPath: IndexPath) {
    IdleQueue.main.cellDidEndDisplaying(cell)
  }
}

import UIKit

/// One row of the demo: a label on top and three 85 × 85 pt images below, laid out in code. IdleWork needs
/// nothing from it: any cell can be handed to `bind(_:to:)` and `addTask(for:at:)` as it is.
final class ImageRowCell: UITableViewCell {
  static let reuseIdentifier = "ImageRowCell"

  let titleLabel = UILabel()
  /// The pictures a row shows.
  static let imageCount = 3
  let imageViews = (0..<ImageRowCell.imageCount).map { _ in UIImageView() }

  override init(style: UITableViewCell.CellStyle, reuseIdentifier: String?) {
    super.init(style: style, reuseIdentifier: reuseIdentifier)
    selectionStyle = .none
    titleLabel.frame = CGRect(x: 5, y: 5, width: 300, height: 25)
    titleLabel.font = .boldSystemFont(ofSize: 13)
    titleLabel.textColor = .systemRed
    contentView.addSubview(titleLabel)
    for (slot, imageView) in imageViews.enumerated() {
      imageView.frame = CGRect(x: 5 + 100 * CGFloat(slot), y: 35, width: 85, height: 85)
      imageView.contentMode = .scaleAspectFit
      contentView.addSubview(imageView)
    }
  }

  @available(*, unavailable)
  required init?(coder: NSCoder) {
    fatalError("ImageRowCell is built in code")
  }

  /// A reused cell starts without the previous row's images; its new row's draws are already queued.
  override func prepareForReuse() {
    super.prepareForReuse()
    for imageView in imageViews { imageView.image = nil }
  }
}

import SwiftUI

/// The app's entry point. A package-based app starts from a SwiftUI `App`; its one window shows the UIKit
/// ``FeedViewController``, which is the whole demo.
@main
struct IdleWorkDemoApp: App {
  var body: some Scene {
    WindowGroup {
      FeedView().ignoresSafeArea()
    }
  }
}

/// Puts ``FeedViewController`` in the SwiftUI window.
struct FeedView: UIViewControllerRepresentable {
  func makeUIViewController(context: Context) -> FeedViewController {
    FeedViewController()
  }

  func updateUIViewController(_ uiViewController: FeedViewController, context: Context) {}
}

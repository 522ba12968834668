// swift-tools-version:6.0
import PackageDescription

// FeedDemo: a UITableView-like feed simulated on the real main CFRunLoop, measuring IdleWork against
// DWURunLoopWorkDistribution, Texture's ASRunLoopQueue and the naive ways. It is also the benchmark:
//   swift run -c release --package-path Example FeedDemo
let package = Package(
  name: "FeedDemo",
  platforms: [.macOS(.v10_15)],
  // `name:` lets the product reference below work whatever the checkout's directory is called
  // (a path dependency's identity is otherwise its directory name).
  dependencies: [.package(name: "IdleWork", path: "..")],
  targets: [
    .executableTarget(
      name: "FeedDemo",
      dependencies: [.product(name: "IdleWork", package: "IdleWork")]
    )
  ],
  swiftLanguageModes: [.v6]
)

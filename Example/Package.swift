// swift-tools-version:6.0
import PackageDescription

// FeedDemo v3: a UITableView-like feed on the real main CFRunLoop with an iOS-like frame pipeline (a
// display-link source signalled by a vsync thread, a commit observer at BeforeWaiting order 2,000,000),
// measuring IdleWork against DWURunLoopWorkDistribution, Texture's ASRunLoopQueue, the naive ways, and the
// libraries that draw in the background (YYAsyncLayer, Texture's async display, AsyncDraw, MSCachedAsyncViewDrawing).
//   swift run -c release --package-path Example FeedDemo --quick
// FeedDemoKit holds everything the metric tests need; FeedDemo is a thin `main`.
let package = Package(
  name: "FeedDemo",
  platforms: [.macOS(.v10_15)],
  // `name:` lets the product reference below work whatever the checkout's directory is called
  // (a path dependency's identity is otherwise its directory name).
  dependencies: [.package(name: "IdleWork", path: "..")],
  targets: [
    .target(
      name: "FeedDemoKit",
      dependencies: [
        .product(name: "IdleWork", package: "IdleWork"),
        .product(name: "IdleWorkPreparation", package: "IdleWork"),
      ]
    ),
    .executableTarget(name: "FeedDemo", dependencies: ["FeedDemoKit"]),
    // What one addition costs as an app makes it, beside Array.append (see its main.swift).
    .executableTarget(name: "AddTaskCost", dependencies: [.product(name: "IdleWork", package: "IdleWork")]),
    .testTarget(name: "FeedDemoTests", dependencies: ["FeedDemoKit"]),
  ],
  swiftLanguageModes: [.v6]
)

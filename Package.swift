// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "IdleWork",
  platforms: [.iOS(.v13), .tvOS(.v13), .macOS(.v10_15)],
  products: [
    .library(name: "IdleWork", targets: ["IdleWork"]),
    // Results prepared off the main thread, cached and prefetched, applied in the queue's passes.
    .library(name: "IdleWorkPreparation", targets: ["IdleWorkPreparation"]),
    .library(name: "IdleWorkTesting", targets: ["IdleWorkTesting"]),
    // The Objective-C face: a module of its own, so that Swift users see none of it.
    .library(name: "IdleWorkObjC", targets: ["IdleWorkObjC"]),
  ],
  targets: [
    .target(
      name: "IdleWork",
      swiftSettings: [
        // Invariant checks of the policy core (the accounting identity) in debug builds.
        .define("IDLEWORK_INTERNAL_CHECKS", .when(configuration: .debug))
      ]
    ),
    .target(name: "IdleWorkPreparation", dependencies: ["IdleWork"]),
    .target(name: "IdleWorkTesting", dependencies: ["IdleWork"]),
    .target(name: "IdleWorkObjC", dependencies: ["IdleWork", "IdleWorkPreparation"]),
    // Helpers the test targets share (locked counters, run-loop spinning, seeded randomness); no product.
    .target(name: "TestHelpers", dependencies: ["IdleWork", "IdleWorkTesting"], path: "Tests/TestHelpers"),
    .testTarget(name: "IdleWorkTests", dependencies: ["IdleWork", "IdleWorkTesting", "TestHelpers"]),
    .testTarget(
      name: "IdleWorkTestingTests", dependencies: ["IdleWork", "IdleWorkPreparation", "IdleWorkTesting"]),
    // Preparation's behaviour through the public API and IdleWorkTesting alone: no `@testable`.
    .testTarget(
      name: "IdleWorkPreparationTests",
      dependencies: ["IdleWork", "IdleWorkPreparation", "IdleWorkTesting", "TestHelpers"]),
  ],
  swiftLanguageModes: [.v6]
)

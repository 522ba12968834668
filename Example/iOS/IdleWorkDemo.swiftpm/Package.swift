// swift-tools-version: 5.9
// A package-based iOS app (an Xcode "App playground"): Xcode 16 or later opens this folder and runs it on a
// simulator or device, with no project file, storyboard or Info.plist. `AppleProductTypes` exists only in Xcode
// and Swift Playgrounds, so this manifest cannot be built with `swift build`.
import AppleProductTypes
import PackageDescription

let package = Package(
  name: "IdleWorkDemo",
  platforms: [.iOS("16.0")],
  products: [
    .iOSApplication(
      name: "IdleWorkDemo",
      targets: ["AppModule"],
      bundleIdentifier: "org.example.IdleWorkDemo",
      displayVersion: "1.0",
      bundleVersion: "1",
      appIcon: .placeholder(icon: .heart),
      accentColor: .presetColor(.blue),
      supportedDeviceFamilies: [.pad, .phone],
      supportedInterfaceOrientations: [.portrait, .landscapeRight, .landscapeLeft]
    )
  ],
  // The IdleWork checkout three levels up; `name:` makes the product reference independent of its directory name.
  dependencies: [.package(name: "IdleWork", path: "../../..")],
  targets: [
    .executableTarget(
      name: "AppModule",
      dependencies: [
        .product(name: "IdleWork", package: "IdleWork"),
        .product(name: "IdleWorkPreparation", package: "IdleWork"),
      ],
      path: "Sources"
    )
  ]
)

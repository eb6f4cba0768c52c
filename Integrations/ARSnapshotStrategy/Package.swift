// swift-tools-version: 6.1
// ARSnapshotTesting as a strategy for Point-Free's swift-snapshot-testing: `assertSnapshot(of:
// phone, as: .arView(…))` beside a team's other snapshot tests. A package of its own, so that
// ARScene's core never depends on swift-snapshot-testing; only its SnapshotTesting library is
// built (not the inline-snapshot part that needs swift-syntax).
import PackageDescription

let package = Package(
  name: "ARSnapshotStrategy",
  platforms: [.macOS(.v13), .iOS(.v16)],
  products: [.library(name: "ARSnapshotStrategy", targets: ["ARSnapshotStrategy"])],
  dependencies: [
    .package(name: "ARScene", path: "../.."),
    .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.19.0"),
  ],
  targets: [
    .target(
      name: "ARSnapshotStrategy",
      dependencies: [
        .product(name: "ARSnapshotTesting", package: "ARScene"),
        .product(name: "ARTapTesting", package: "ARScene"),
        .product(name: "ARImage", package: "ARScene"),
        .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
      ]
    )
  ]
)

// swift-tools-version: 6.1
// What app teams write: an acupressure team's unit and snapshot tests of its tap hit-testing, and
// a site-guide team's snapshot tests, depending on ARScene's codec-free core (ARTapTesting,
// ARSnapshotTesting, ARHit, ARGeo, ARMath) by path, as an app's package would by URL.
import PackageDescription

let package = Package(
  name: "TapHitTests",
  dependencies: [
    .package(name: "ARScene", path: "../.."),
    .package(name: "ARSnapshotStrategy", path: "../../Integrations/ARSnapshotStrategy"),
    .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.19.0"),
  ],
  targets: [
    .testTarget(
      name: "AcupressureTapTests",
      dependencies: [
        .product(name: "ARTapTesting", package: "ARScene"),
        .product(name: "ARHit", package: "ARScene"),
        .product(name: "ARSnapshotTesting", package: "ARScene"),
        .product(name: "ARMesh", package: "ARScene"),
        .product(name: "ARMath", package: "ARScene"),
      ]
    ),
    // What a site-guide team writes: snapshot tests of a stop's label seen from a GPS position.
    .testTarget(
      name: "SiteGuideSnapshotTests",
      dependencies: [
        .product(name: "ARTapTesting", package: "ARScene"),
        .product(name: "ARSnapshotTesting", package: "ARScene"),
        .product(name: "ARGeo", package: "ARScene"),
        .product(name: "ARMath", package: "ARScene"),
      ]
    ),
    // The same checks through Point-Free's swift-snapshot-testing, beside a team's other
    // snapshot tests: `assertSnapshot(of: phone, as: .arView(…))`.
    .testTarget(
      name: "SnapshotStrategyTests",
      dependencies: [
        .product(name: "ARTapTesting", package: "ARScene"),
        .product(name: "ARSnapshotTesting", package: "ARScene"),
        .product(name: "ARSnapshotStrategy", package: "ARSnapshotStrategy"),
        .product(name: "ARImage", package: "ARScene"),
        .product(name: "ARMesh", package: "ARScene"),
        .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
      ]
    ),
  ]
)

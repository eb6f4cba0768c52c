// swift-tools-version: 6.1
// What an acupressure app team writes: unit tests of its tap hit-testing, depending on ARScene's
// codec-free core (ARTapTesting, ARHit, ARMath) by path, as an app's package would by URL.
import PackageDescription

let package = Package(
  name: "TapHitTests",
  dependencies: [.package(name: "ARScene", path: "../..")],
  targets: [
    .testTarget(
      name: "AcupressureTapTests",
      dependencies: [
        .product(name: "ARTapTesting", package: "ARScene"),
        .product(name: "ARHit", package: "ARScene"),
      ]
    )
  ]
)

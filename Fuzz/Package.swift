// swift-tools-version: 6.1
// libFuzzer targets for ARScene's readers. A package of its own, so that the fuzzing build
// flags never touch the main package's ordinary builds. Run through Tools/fuzz, which passes
// the coverage instrumentation and links libFuzzer's driver without its `main`. The readers'
// harnesses are Tests/ARFuzzing (through a link), which Tools/test also runs briefly.
import Foundation
import PackageDescription

// A path dependency's identity is its folder's name, which depends on where the repository was
// cloned: read it instead of spelling it.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .lastPathComponent
// The harnesses check the promises of ARFiles, which the root package keeps at `package` access
// (it is not a product): compiled under the root package's name, they may call it. SwiftPM names
// a package by its identity with every character that is not a letter or digit made "_".
let rootPackageName = String(root.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "_" })

let package = Package(
  name: "ARSceneFuzz",
  platforms: [.macOS(.v13), .iOS(.v16)],
  dependencies: [.package(path: "..")],
  targets: [
    .target(
      name: "ARFuzzing",
      dependencies: [
        .product(name: "ARMath", package: root), .product(name: "ARMesh", package: root),
        .product(name: "ARScene", package: root), .product(name: "ARRecording", package: root),
        .product(name: "ARPlaces", package: root), .product(name: "ARFilm", package: root),
        .product(name: "ARImageIO", package: root), .product(name: "ARPose", package: root),
        .product(name: "ARMarkers", package: root), .product(name: "ARReplay", package: root),
        .product(name: "ARSnapshotTesting", package: root),
      ],
      packageAccess: false,  // SwiftPM would pass this package's name after ours
      swiftSettings: [.unsafeFlags(["-package-name", rootPackageName])]
    ),
    .executableTarget(
      name: "arscene-fuzz",
      dependencies: ["ARFuzzing", .product(name: "ARMeshCompression", package: root)]),
  ]
)

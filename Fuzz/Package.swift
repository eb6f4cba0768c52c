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
        .product(name: "ARMarkers", package: root), .product(name: "ARFiles", package: root),
      ]
    ),
    .executableTarget(
      name: "arscene-fuzz",
      dependencies: ["ARFuzzing", .product(name: "ARMeshCompression", package: root)]),
  ]
)

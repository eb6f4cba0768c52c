// swift-tools-version: 6.1
// libFuzzer targets for ARScene's readers. A package of its own, so that the fuzzing build
// flags never touch the main package's ordinary builds. Run through Tools/fuzz, which passes
// the coverage instrumentation and links libFuzzer's driver without its `main`.
import Foundation
import PackageDescription

// A path dependency's identity is its folder's name, which depends on where the repository was
// cloned: read it instead of spelling it.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

let package = Package(
  name: "ARSceneFuzz",
  dependencies: [.package(path: "..")],
  targets: [
    .executableTarget(
      name: "obj-fuzz",
      dependencies: [.product(name: "ARMesh", package: root.lastPathComponent)]
    )
  ]
)

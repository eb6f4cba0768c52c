// swift-tools-version: 6.1
// The peers ARScene is checked against at run time, apart from the product: GLM, GeographicLib
// and Mesa's llvmpipe behind small C ABIs, and the tests that call them. Tools/test runs these
// tests after the product's own; the Benchmarks package times the product against the same
// oracles. Debian packages they need: Tools/bootstrap --tests.
import Foundation
import PackageDescription

// A path dependency's identity is its folder's name, which depends on where the repository was
// cloned: read it instead of spelling it.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .lastPathComponent

let package = Package(
  name: "ARSceneOracles",
  platforms: [.macOS(.v13), .iOS(.v16)],
  products: [
    .library(name: "GLMOracle", targets: ["GLMOracle"]),
    .library(name: "GeographicLibOracle", targets: ["GeographicLibOracle"]),
    .library(name: "MesaOracle", targets: ["MesaOracle"]),
    // ARScene's lit draw calls drawn by llvmpipe: scenes' and snapshots' independent renderer.
    .library(name: "LitOracle", targets: ["LitOracle"]),
    // The product's test support (Tests/ARTestSupport, through a link), for the benchmarks too.
    .library(name: "ARTestSupport", targets: ["ARTestSupport"]),
  ],
  dependencies: [
    .package(path: ".."),
    .package(url: "https://github.com/apple/swift-numerics", from: "1.1.1"),
  ],
  targets: [
    // GLM (Debian libglm-dev) behind a C ABI, so Swift can call it without C++ interop leaking
    // into every dependent target. Always -O2: it is also the benchmark peer.
    .target(
      name: "GLMOracle",
      cxxSettings: [.unsafeFlags(["-O2", "-std=c++17"])],
      linkerSettings: [.linkedLibrary("m")]
    ),
    // GeographicLib (Debian libgeographiclib-dev): geodesics and the geodesy benchmark peer.
    .target(
      name: "GeographicLibOracle",
      cxxSettings: [.unsafeFlags(["-O2", "-std=c++17"])],
      linkerSettings: [.linkedLibrary("GeographicLib")]
    ),
    // Mesa's llvmpipe through OSMesa (Debian libosmesa6-dev), and through EGL and GLES 3
    // (libegl-dev, libgles-dev) for the multisampled and lit peers.
    .systemLibrary(name: "COSMesa", pkgConfig: "osmesa", providers: [.apt(["libosmesa6-dev"])]),
    .target(
      name: "MesaOracle",
      dependencies: ["COSMesa"],
      cSettings: [.unsafeFlags(["-O2"])],
      linkerSettings: [.linkedLibrary("EGL"), .linkedLibrary("GLESv2")]
    ),
    .target(
      name: "LitOracle",
      dependencies: [
        "MesaOracle", .product(name: "ARRender", package: root), .product(name: "ARImage", package: root),
        .product(name: "ARMath", package: root), .product(name: "ARMesh", package: root),
      ]
    ),
    .target(
      name: "ARTestSupport",
      dependencies: [
        .product(name: "ARMath", package: root), .product(name: "ARMesh", package: root),
        .product(name: "RealModule", package: "swift-numerics"),
      ]
    ),
    .testTarget(
      name: "OracleTests",
      dependencies: [
        "GLMOracle", "GeographicLibOracle", "MesaOracle", "LitOracle", "ARTestSupport",
        .product(name: "ARSnapshotTesting", package: root), .product(name: "ARTapTesting", package: root),
        .product(name: "ARMath", package: root), .product(name: "ARGeo", package: root),
        .product(name: "ARPlaces", package: root), .product(name: "ARMesh", package: root),
        .product(name: "ARImage", package: root), .product(name: "ARRender", package: root),
      ]
    ),
  ]
)

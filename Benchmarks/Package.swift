// swift-tools-version: 6.1
// ARScene timed against its peers, side by side (Tools/bench): a package apart from the product,
// so that building or depending on ARScene never needs a peer. The oracles shared with the tests
// come from the Oracles package; the peers only the benchmark races (Embree, libvips,
// tinyobjloader, libpng's simplified API, assimp) live here. Debian packages: Tools/bootstrap --bench.
import Foundation
import PackageDescription

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .lastPathComponent

let package = Package(
  name: "ARSceneBenchmarks",
  platforms: [.macOS(.v13), .iOS(.v16)],
  dependencies: [
    .package(path: ".."),
    .package(path: "../Oracles"),
  ],
  targets: [
    // tinyobjloader's header (Debian libtinyobjloader-dev) compiled at -O2: the OBJ peer.
    .target(name: "TinyOBJOracle", cxxSettings: [.unsafeFlags(["-O2", "-std=c++17"])]),
    // libpng's simplified API (Debian libpng-dev): the PNG peer.
    .target(
      name: "LibPNGOracle", cSettings: [.unsafeFlags(["-O2"])], linkerSettings: [.linkedLibrary("png")]),
    // The Open Asset Import Library (Debian libassimp-dev): the glTF/GLB peer.
    .target(
      name: "AssimpOracle", cSettings: [.unsafeFlags(["-O2"])], linkerSettings: [.linkedLibrary("assimp")]),
    // Embree (Debian libembree-dev): the ray-casting peer.
    .target(
      name: "EmbreeOracle", cSettings: [.unsafeFlags(["-O2"])], linkerSettings: [.linkedLibrary("embree3")]),
    // libvips (Debian libvips-dev): the film peer. Its few functions are declared by the oracle
    // itself: the headers' pkg-config flags would need glib's include paths.
    .target(
      name: "VipsOracle",
      cSettings: [.unsafeFlags(["-O2"])],
      linkerSettings: [.linkedLibrary("vips"), .linkedLibrary("gobject-2.0"), .linkedLibrary("glib-2.0")]
    ),
    .executableTarget(
      name: "arscene-bench",
      dependencies: [
        "TinyOBJOracle", "LibPNGOracle", "EmbreeOracle", "VipsOracle", "AssimpOracle",
        .product(name: "GLMOracle", package: "Oracles"),
        .product(name: "GeographicLibOracle", package: "Oracles"),
        .product(name: "MesaOracle", package: "Oracles"),
        .product(name: "LitOracle", package: "Oracles"),
        .product(name: "ARTestSupport", package: "Oracles"),
        .product(name: "ARMath", package: root), .product(name: "ARGeo", package: root),
        .product(name: "ARPose", package: root), .product(name: "ARMesh", package: root),
        .product(name: "ARImage", package: root), .product(name: "ARImageIO", package: root),
        .product(name: "ARHit", package: root), .product(name: "ARRender", package: root),
        .product(name: "ARRecording", package: root), .product(name: "ARPlaces", package: root),
        .product(name: "ARMarkers", package: root), .product(name: "ARFilm", package: root),
        .product(name: "ARScene", package: root), .product(name: "ARSceneRendering", package: root),
        .product(name: "ARReplay", package: root), .product(name: "ARMeshCompression", package: root),
      ]
    ),
  ]
)

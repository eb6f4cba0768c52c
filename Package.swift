// swift-tools-version: 6.1
// ARScene: a headless AR geometry and scene engine. Module layout and conventions: README.md
// ("Architecture") and docs/CONVENTIONS.md. Imports only point down the list below. The peers it
// is checked and timed against live in the nested packages Oracles/ and Benchmarks/.
import Foundation
import PackageDescription

let package = Package(
  name: "ARScene",
  // The oldest systems whose SDKs have what the sources use (typed throws back-deploy; atomics
  // come from swift-atomics rather than the OS's Synchronization, which needs macOS 15).
  platforms: [.macOS(.v13), .iOS(.v16)],
  products: [
    .library(name: "ARMath", targets: ["ARMath"]),
    .library(name: "ARGeo", targets: ["ARGeo"]),
    .library(name: "ARPose", targets: ["ARPose"]),
    .library(name: "ARMesh", targets: ["ARMesh"]),
    .library(name: "ARMeshCompression", targets: ["ARMeshCompression"]),
    .library(name: "ARImage", targets: ["ARImage"]),
    .library(name: "ARImageIO", targets: ["ARImageIO"]),
    .library(name: "ARHit", targets: ["ARHit"]),
    .library(name: "ARRender", targets: ["ARRender"]),
    // For app teams' tests: a model and its points, a phone placed before them, taps on screen.
    .library(name: "ARTapTesting", targets: ["ARTapTesting"]),
    // For app teams' visual tests: what the phone shows, rendered on the CPU, against
    // reference PNGs beside the test (no system library: it builds wherever Swift does).
    .library(name: "ARSnapshotTesting", targets: ["ARSnapshotTesting"]),
    .library(name: "ARRecording", targets: ["ARRecording"]),
    // Places: points of interest, their spatial index, geofences, the visit game, nearby people.
    .library(name: "ARPlaces", targets: ["ARPlaces"]),
    // Square fiducial markers: dictionaries (ArUco, AprilTag), generation, detection.
    .library(name: "ARMarkers", targets: ["ARMarkers"]),
    .library(name: "ARFilm", targets: ["ARFilm"]),
    // Coordinate reference systems through PROJ (a C system library, like the image codecs).
    .library(name: "ARCRS", targets: ["ARCRS"]),
    .library(name: "ARScene", targets: ["ARScene"]),
    .library(name: "ARSceneRendering", targets: ["ARSceneRendering"]),
    .library(name: "ARReplay", targets: ["ARReplay"]),
    .library(name: "ARMaps", targets: ["ARMaps"]),
    .library(name: "ARVideo", targets: ["ARVideo"]),
    .executable(name: "arscene", targets: ["arscene"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-numerics", from: "1.1.1"),
    // The tile queue's lock-free counters, on every OS version the core supports.
    .package(url: "https://github.com/apple/swift-atomics", from: "1.3.0"),
    // `swift package generate-documentation` (Tools/docs); a plugin, linked into nothing.
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
  ],
  targets: [
    // MARK: Product
    .target(
      name: "ARMath",
      dependencies: [
        .product(name: "RealModule", package: "swift-numerics"),
        .product(name: "Atomics", package: "swift-atomics"),
      ]
    ),
    .target(
      name: "ARGeo",
      dependencies: ["ARMath", .product(name: "RealModule", package: "swift-numerics")],
      exclude: ["Magnetic/WMM2025.COF", "Magnetic/README.md", "Geoid/README.md"],
      resources: [.copy("Geoid/egm96-15min.cm16")]
    ),
    .target(
      name: "ARPose",
      dependencies: ["ARMath", "ARFiles", .product(name: "RealModule", package: "swift-numerics")]
    ),
    // Whole-file reads and atomic writes, shared by every module that reads or writes files.
    .target(name: "ARFiles", dependencies: ["ARMath"]),
    // Meshes, materials and model reading and writing: Swift, the assembled mesh's indices
    // written by a C loop (CVectorKernels, no system library).
    .target(
      name: "ARMesh",
      dependencies: [
        "ARMath", "ARFiles", "CVectorKernels", .product(name: "RealModule", package: "swift-numerics"),
      ]
    ),
    // Decoded images and sRGB: pure Swift, so the renderer needs no codec.
    .target(
      name: "ARImage",
      dependencies: [.product(name: "RealModule", package: "swift-numerics")]
    ),
    // Image files: the only module that links libpng, libjpeg-turbo and libwebp.
    .target(
      name: "ARImageIO",
      dependencies: ["ARImage", "ARFiles", "CImageCodecs", "CDeflate", "CWebP"]
    ),
    .target(
      name: "ARHit",
      dependencies: [
        "ARMath", "ARMesh", "ARImage", "CMathShims", "CVectorKernels",
        .product(name: "RealModule", package: "swift-numerics"),
      ]
    ),
    .target(
      name: "ARTapTesting",
      dependencies: ["ARHit", "ARMesh", "ARMath"]
    ),
    .target(
      name: "ARSnapshotTesting",
      dependencies: ["ARTapTesting", "ARHit", "ARRender", "ARImage", "ARMesh", "ARMath", "ARFiles"]
    ),
    .target(
      name: "ARRender",
      dependencies: [
        "ARMath", "ARMesh", "ARImage", "CMathShims", .product(name: "RealModule", package: "swift-numerics"),
        .product(name: "Atomics", package: "swift-atomics"),
      ]
    ),
    // Recordings and trajectories: formats, time association, the error metrics.
    .target(
      name: "ARRecording",
      dependencies: [
        "ARMath", "ARGeo", "ARPose", "ARPlaces", "ARFiles",
        .product(name: "RealModule", package: "swift-numerics"),
      ]
    ),
    .target(
      name: "ARPlaces",
      dependencies: [
        "ARMath", "ARGeo", "ARFiles", "CMathShims", .product(name: "RealModule", package: "swift-numerics"),
      ]
    ),
    // Scene files and placement: models, anchors (geo, marker, plane, a CRS's coordinates
    // through a conversion the caller supplies), points, labels, lights, cameras.
    .target(
      name: "ARScene",
      dependencies: [
        "ARMath", "ARGeo", "ARPose", "ARMesh", "ARImage", "ARImageIO", "ARRender", "ARFiles", "ARFilm",
        "ARMarkers",
      ]
    ),
    // Rendering a scene (labels and film looks included) and hit-testing taps in it.
    .target(
      name: "ARSceneRendering",
      dependencies: [
        "ARScene", "ARGeo", "ARMath", "ARMesh", "ARImage", "ARImageIO", "ARHit", "ARRender", "ARFilm",
      ]
    ),
    // A recording rendered over its frames: placement by the replayed alignment, depth
    // occlusion, motion blur, camera grain, replayed taps.
    .target(
      name: "ARReplay",
      dependencies: [
        "ARScene", "ARSceneRendering", "ARMath", "ARGeo", "ARMesh", "ARImage", "ARImageIO", "ARHit",
        "ARRender", "ARFiles",
        "ARRecording", "ARVideo", "ARFilm", "ARMarkers",
      ]
    ),
    // 2-D site maps (SVG and PNG) and the label font.
    .target(name: "ARMaps", dependencies: ["ARMath", "ARGeo", "ARImage", "ARPlaces"]),
    .systemLibrary(
      name: "CPNG",
      pkgConfig: "libpng",
      providers: [.apt(["libpng-dev"])]
    ),
    // libwebp reports errors by status codes (no longjmp): Swift calls it directly.
    .systemLibrary(
      name: "CWebP",
      pkgConfig: "libwebp",
      providers: [.apt(["libwebp-dev"])]
    ),
    .systemLibrary(
      name: "CJPEG",
      pkgConfig: "libturbojpeg",
      providers: [.apt(["libturbojpeg0-dev"])]
    ),
    // Video through Debian's ffmpeg (an external program, at the edge like the codecs).
    .target(name: "ARVideo", dependencies: ["ARImage", "ARFiles"]),
    // OpenEXR's C core: EXR depth images (Record3D's EXR export).
    .systemLibrary(name: "COpenEXR", providers: [.apt(["libopenexr-dev"])]),
    .systemLibrary(
      name: "CDeflate",
      pkgConfig: "libdeflate",
      providers: [.apt(["libdeflate-dev"])]
    ),
    .systemLibrary(
      name: "CISAL",
      pkgConfig: "libisal",
      providers: [.apt(["libisal-dev"])]
    ),
    .systemLibrary(
      name: "CPROJ",
      pkgConfig: "proj",
      providers: [.apt(["libproj-dev"])]
    ),
    .target(name: "ARCRS", dependencies: ["CPROJ"]),
    // Compressed glTF geometry (EXT_meshopt_compression) through Debian's meshoptimizer, at the
    // edge: ARMesh reads such files when this module has registered its decoder.
    .systemLibrary(name: "CMeshopt", providers: [.apt(["libmeshoptimizer-dev"])]),
    // Draco (KHR_draco_mesh_compression) is C++: a C face of our own over Debian's libdraco.
    .target(name: "CDraco", linkerSettings: [.linkedLibrary("draco")]),
    .target(name: "ARMeshCompression", dependencies: ["ARMesh", "CMeshopt", "CDraco"]),
    .target(name: "ARMarkers", dependencies: ["ARImage", "ARMath", "ARPose", "ARFiles", "CVectorKernels"]),
    // Film looks: stages on linear images, stocks as JSON presets shipped as resources.
    .target(
      name: "ARFilm", dependencies: ["ARImage", "ARMath", "ARFiles", "CVectorKernels"],
      resources: [.copy("Presets")]),
    .target(name: "CMathShims"),
    // Hot loops with an AVX2 version chosen at run time (the build itself stays portable).
    .target(name: "CVectorKernels"),
    // libpng reports errors by longjmp, which must not cross Swift frames: the codecs are C.
    .target(
      name: "CImageCodecs",
      dependencies: ["CPNG", "CJPEG", "CDeflate", "CISAL", "COpenEXR"],
      // The EXR decoder includes OpenEXR's header rather than importing its module, and the KTX2
      // decoder Zstandard's: link them here.
      linkerSettings: [.linkedLibrary("OpenEXRCore-3_1"), .linkedLibrary("zstd")]
    ),
    .executableTarget(
      name: "arscene",
      dependencies: [
        "ARMath",
        "ARRecording",
        "ARPlaces",
        "ARCRS",
        "ARMarkers",
        "ARFilm",
        "ARGeo",
        "ARHit",
        "ARPose",
        "ARFiles",
        "ARMesh",
        "ARMeshCompression",
        "ARImage",
        "ARImageIO",
        "ARRender",
        "ARScene",
        "ARSceneRendering",
        "ARReplay",
        "ARMaps",
        "ARVideo",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),

    // MARK: Tests
    .target(
      name: "ARTestSupport",
      dependencies: ["ARMath", "ARMesh", .product(name: "RealModule", package: "swift-numerics")],
      path: "Tests/ARTestSupport"
    ),
    .testTarget(
      name: "ARMathTests",
      dependencies: ["ARMath", "ARTestSupport"]
    ),
    .testTarget(
      name: "ARGeoTests",
      dependencies: ["ARGeo", "ARMath", "ARTestSupport"]
    ),
    .testTarget(
      name: "ARHitTests",
      dependencies: [
        "ARHit", "ARMath", "ARMesh", "ARTestSupport",
        .product(name: "RealModule", package: "swift-numerics"),
      ]
    ),
    .testTarget(
      name: "ARPoseTests",
      dependencies: ["ARPose", "ARMath", "ARTestSupport"]
    ),
    .testTarget(
      name: "ARMeshTests",
      dependencies: ["ARMesh", "ARMath", "ARTestSupport", "CVectorKernels"]
    ),
    .testTarget(
      name: "ARFilmTests",
      dependencies: ["ARFilm", "ARImage", "ARImageIO", "ARMath", "ARTestSupport"]
    ),
    .testTarget(
      name: "ARMarkersTests",
      dependencies: ["ARMarkers", "ARImage", "ARImageIO", "ARMath", "ARPose", "ARTestSupport"]
    ),
    .testTarget(
      name: "ARCRSTests",
      dependencies: ["ARCRS", "ARTestSupport"]
    ),
    .testTarget(
      name: "ARPlacesTests",
      dependencies: ["ARPlaces", "ARGeo", "ARMath", "ARTestSupport"]
    ),
    .testTarget(
      name: "ARImageIOTests",
      dependencies: ["ARImageIO", "ARImage", "ARMath", "ARMesh", "ARTestSupport", "CImageCodecs"]
    ),
    .testTarget(
      name: "ARRenderTests",
      dependencies: ["ARRender", "ARMesh", "ARImage", "ARImageIO", "ARMath", "ARTestSupport"]
    ),
    // Every reader as a fuzz target, shared with the libFuzzer package in Fuzz/ (through a link).
    .target(
      name: "ARFuzzing",
      dependencies: [
        "ARMath", "ARFiles", "ARMesh", "ARScene", "ARRecording", "ARPlaces", "ARFilm", "ARImageIO", "ARPose",
        "ARMarkers", "ARReplay", "ARSnapshotTesting",
      ],
      path: "Tests/ARFuzzing"
    ),
    .testTarget(
      name: "FuzzTests",
      dependencies: ["ARFuzzing"]
    ),
    .testTarget(
      name: "ARFilesTests",
      dependencies: ["ARFiles", "ARMath", "ARTestSupport"]
    ),
    .testTarget(
      name: "ARImageTests",
      dependencies: ["ARImage"]
    ),
    .testTarget(
      name: "ARVideoTests",
      dependencies: ["ARVideo", "ARImage", "ARFiles", "ARTestSupport"]
    ),
    .testTarget(
      name: "ARTapTestingTests",
      dependencies: ["ARTapTesting", "ARHit", "ARMath", "ARTestSupport"]
    ),
    .testTarget(
      name: "ARSnapshotTestingTests",
      dependencies: ["ARSnapshotTesting", "ARTapTesting", "ARImage", "ARImageIO", "ARMath", "ARTestSupport"]
    ),
    .testTarget(
      name: "ARSceneTests",
      dependencies: ["ARScene", "ARSceneRendering", "ARCRS", "ARGeo", "ARMath", "ARTestSupport"]
    ),
    .testTarget(
      name: "ARSceneRenderingTests",
      dependencies: [
        "ARSceneRendering", "ARScene", "ARGeo", "ARRender", "ARMesh", "ARImage", "ARImageIO", "ARHit",
        "ARMath", "ARFilm", "ARRecording", "ARTestSupport",
      ],
      exclude: ["Golden"]  // golden PNGs, read by path (#filePath) so they can be re-recorded in place
    ),
    .testTarget(
      name: "ARReplayTests",
      dependencies: [
        "ARReplay", "ARSceneRendering", "ARScene", "ARImage", "ARMath", "ARRecording", "ARFilm", "ARGeo",
        "ARMarkers", "ARTestSupport",
      ]
    ),
    .testTarget(
      name: "ARMapsTests",
      dependencies: ["ARMaps", "ARGeo", "ARImage", "ARPlaces", "ARTestSupport"]
    ),
    // Reads the manifest (swift package dump-package): the core's dependency closure.
    .testTarget(
      name: "ARRecordingTests",
      dependencies: ["ARRecording", "ARFiles", "ARImageIO", "ARMath", "ARTestSupport"]
    ),
    .testTarget(
      name: "PackageTests",
      dependencies: ["ARTestSupport"]
    ),
    .testTarget(
      name: "arsceneTests",
      dependencies: [
        "arscene", "ARMath", "ARMesh", "ARImage", "ARImageIO", "ARRecording", "ARGeo", "ARTestSupport",
      ]
    ),
  ],
  cxxLanguageStandard: .cxx17
)

// Tools/test's build (ARSCENE_OPTIMISED_PRODUCT set): the product's modules optimised, and the
// test targets that draw frames pixel by pixel or walk rays and lines by the million in their
// own code; the other tests' code unoptimised, which halves their build and costs their runs
// little. ARSCENE_WHOLE_MODULE compiles modules whole, in one job that type-checks each file
// once, their code generated on two threads: a build from nothing (CI's) takes less time than
// in batches, though a change then rebuilds its whole module. `all` (Tools/test's Oracles
// package) compiles every module so; `tests` (Tools/test's product build) the test targets and
// the executable, the libraries staying in batches: the documentation plugin builds each
// library again for its symbols, which costs nothing in batches (nothing changed) and a whole
// module's compilation each when whole (CI's docs phase went from 47 s to over 200). An app
// team's build never sets either: their manifest has no unsafe flags.
let environment = ProcessInfo.processInfo.environment
let wholeModule = environment["ARSCENE_WHOLE_MODULE"]
let optimised = environment["ARSCENE_OPTIMISED_PRODUCT"] != nil
if wholeModule != nil || optimised {
  let busyTests: Set = ["ARMarkersTests", "ARRenderTests", "ARHitTests", "ARFilesTests"]
  for target in package.targets where [.regular, .executable, .test].contains(target.type) {
    let optimise =
      optimised && (target.type == .regular || target.type == .executable || busyTests.contains(target.name))
    let whole = wholeModule == "all" || wholeModule == "tests" && target.type != .regular
    let flags = (optimise ? ["-O"] : []) + (whole ? ["-wmo", "-num-threads", "2"] : [])
    guard !flags.isEmpty else { continue }
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(flags)]
    // The C targets' hot loops (CVectorKernels: marker thresholds, rays, film) optimised too.
    if optimise { target.cSettings = (target.cSettings ?? []) + [.unsafeFlags(["-O2"])] }
  }
}

import ARTestSupport
import Foundation
import Testing

/// The package's target graph, as `swift package dump-package` describes it.
struct PackageGraph {
  struct Target {
    var type: String
    var targetDependencies: [String]
    var productDependencies: [String]
  }
  var targets: [String: Target] = [:]
  /// The `platforms` entries, as `name version`.
  var platforms: [String] = []

  /// Reads the manifest of the package at `root`. A scratch folder of its own keeps the call
  /// clear of the lock that the running `swift test` holds on `.build`.
  init(root: String) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    let scratch = NSTemporaryDirectory() + "arscene-dump-\(UInt32.random(in: 0 ... .max))"
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    process.arguments = [
      "swift", "package", "--package-path", root, "--scratch-path", scratch, "dump-package",
    ]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExitPromptly()
    try #require(process.terminationStatus == 0, "swift package dump-package failed")
    let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    for platform in json["platforms"] as? [[String: Any]] ?? [] {
      platforms.append("\(platform["platformName"] ?? "?") \(platform["version"] ?? "?")")
    }
    for target in try #require(json["targets"] as? [[String: Any]]) {
      let name = try #require(target["name"] as? String)
      var byTarget: [String] = [], byProduct: [String] = []
      for dependency in target["dependencies"] as? [[String: Any]] ?? [] {
        if let named = (dependency["byName"] ?? dependency["target"]) as? [Any],
          let n = named.first as? String
        {
          byTarget.append(n)
        } else if let product = dependency["product"] as? [Any], let n = product.first as? String {
          byProduct.append(n)
        }
      }
      targets[name] = Target(
        type: target["type"] as? String ?? "", targetDependencies: byTarget, productDependencies: byProduct)
    }
  }

  /// `name` and every target it depends on, directly or not.
  func closure(of name: String) -> Set<String> {
    var seen: Set<String> = [], stack = [name]
    while let next = stack.popLast() {
      guard seen.insert(next).inserted, let target = targets[next] else { continue }
      stack += target.targetDependencies
    }
    return seen
  }

  /// The system-library targets (pkg-config, C libraries of the system) in `name`'s closure.
  func systemLibraries(under name: String) -> Set<String> {
    closure(of: name).filter { targets[$0]?.type == "system" }
  }
}

@Suite("Dependency closure of the core")
struct DependencyClosureTests {
  static let root = URL(fileURLWithPath: Fixtures.root).deletingLastPathComponent()
    .deletingLastPathComponent().path

  /// The core: the library modules that link no C system library, so that an app team's unit
  /// tests may depend on them anywhere Swift builds (README, "The library"; DESIGN.md). The test
  /// below checks the list both ways: these link none, and every other library does.
  static let core: Set<String> = [
    "ARMath", "ARGeo", "ARPose", "ARMesh", "ARHit", "ARTapTesting", "ARImage", "ARRender", "ARRecording",
    "ARPlaces", "ARMarkers", "ARFilm", "ARMaps", "ARSnapshotTesting",
  ]

  /// Products of other packages the core may use: pure Swift, built from the package mirror.
  static let allowedProducts: Set<String> = ["RealModule", "Atomics"]

  @Test("the core links no C system library, and image codecs stay in ARImageIO")
  func coreIsCodecFree() throws {
    let graph = try PackageGraph(root: Self.root)
    for module in Self.core {
      #expect(graph.targets[module] != nil, "\(module) is a target")
      #expect(
        graph.systemLibraries(under: module).isEmpty,
        "\(module) reaches \(graph.systemLibraries(under: module))")
      let products = graph.closure(of: module).flatMap { graph.targets[$0]?.productDependencies ?? [] }
      #expect(Set(products).isSubset(of: Self.allowedProducts), "\(module) uses products \(products)")
    }
    // Every library outside the core reaches a system library (ARVideo runs ffmpeg instead;
    // ARFiles and ARTestSupport are helpers, not products).
    let libraries = graph.targets.filter { $0.value.type == "regular" && $0.key.hasPrefix("AR") }.keys
    let edges: Set = ["ARVideo", "ARFiles", "ARTestSupport"]
    for module in libraries where !Self.core.contains(module) && !edges.contains(module) {
      #expect(
        !graph.systemLibraries(under: module).isEmpty,
        "\(module) links no system library: it belongs in the core")
    }
    // The check can fail: the codec module does reach libpng, libjpeg-turbo, libdeflate, ISA-L,
    // OpenEXR and libwebp.
    #expect(
      graph.systemLibraries(under: "ARImageIO") == [
        "CPNG", "CJPEG", "CDeflate", "CISAL", "COpenEXR", "CWebP",
      ])
    #expect(graph.systemLibraries(under: "ARCRS") == ["CPROJ"])
    #expect(graph.systemLibraries(under: "ARMeshCompression") == ["CMeshopt"])
    // A scene user converts a CRS through a function it is given: PROJ stays at the edge.
    #expect(!graph.closure(of: "ARScene").contains("ARCRS"))
    #expect(!graph.closure(of: "ARReplay").contains("ARCRS"))
  }

  @Test("the product's manifest declares its platforms and names no peer or oracle")
  func manifestIsTheProductAlone() throws {
    let graph = try PackageGraph(root: Self.root)
    #expect(graph.platforms.contains("macos 13.0"), "platforms: \(graph.platforms)")
    #expect(graph.platforms.contains("ios 16.0"), "platforms: \(graph.platforms)")
    let systemLibraries = Set(graph.targets.filter { $0.value.type == "system" }.keys)
    #expect(
      systemLibraries == ["CPNG", "CJPEG", "CDeflate", "CISAL", "CPROJ", "CMeshopt", "COpenEXR", "CWebP"])
    let peers = graph.targets.keys.filter { $0.hasSuffix("Oracle") || $0.contains("bench") }
    #expect(peers.isEmpty, "peer targets in the product's manifest: \(peers)")
  }
}

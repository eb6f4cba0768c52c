import ARMath
import ARPose
import ARTestSupport
import Foundation
import Testing

/// Planes in seeded synthetic rooms: a floor, a table and two walls, σ = 2 mm, 50% outliers.
@Suite struct PlaneDetectorTests {
  struct Truth {
    let normal: SIMD3<Double>, offset: Double
  }

  /// Points on rectangles (centre, two half-axes) with Gaussian noise along the normal, plus
  /// clutter making up the fraction `clutter` of all points (half the points by default).
  static func room(seed: UInt64, noise: Double = 0.002, clutter: Double = 0.5) -> (PointCloud, [Truth]) {
    var rng = SplitMix64(seed: seed)
    let surfaces: [(center: SIMD3<Double>, u: SIMD3<Double>, v: SIMD3<Double>, count: Int)] = [
      ([0, 0, 0], [1.5, 0, 0], [0, 0, 1.5], 3000),  // floor
      ([0.3, 0.75, -0.4], [0.5, 0, 0], [0, 0, 0.3], 1000),  // table top
      ([-1.5, 1.2, 0], [0, 1.2, 0], [0, 0, 1.5], 1500),  // wall x = −1.5
      ([0, 1.2, -1.5], [1.5, 0, 0], [0, 1.2, 0], 1500),  // wall z = −1.5
    ]
    var points: [SIMD3<Double>] = []
    var truths: [Truth] = []
    for s in surfaces {
      let n = s.u.cross(s.v).normalized()
      truths.append(Truth(normal: n, offset: n.dot(s.center)))
      for _ in 0..<s.count {
        let a = Double.random(in: -1...1, using: &rng), b = Double.random(in: -1...1, using: &rng)
        points.append(s.center + a * s.u + b * s.v + noise * rng.gaussian() * n)
      }
    }
    let clutterCount = Int((Double(points.count) * clutter / (1 - clutter)).rounded())
    points += rng.roomClutter(clutterCount)
    return (PointCloud(points: points), truths)
  }

  @Test("finds every plane accurately and invents none", arguments: [1, 2, 3] as [UInt64])
  func findsEveryPlaneAccuratelyAndInventsNone(seed: UInt64) throws {
    let (cloud, truths) = Self.room(seed: seed)
    let detector = try PlaneDetector(threshold: 0.008, minimumInliers: 300, seed: seed)
    let planes = try detector.detect(cloud)
    #expect(planes.count == truths.count, "found \(planes.count) planes")
    for truth in truths {
      let match = planes.first {
        abs($0.normal.dot(truth.normal)) > 0.99
          && abs($0.offset - ($0.normal.dot(truth.normal) > 0 ? truth.offset : -truth.offset)) < 0.05
      }
      let plane = try #require(match, "no plane for \(truth)")
      let angle = Double.acos(min(1, abs(plane.normal.dot(truth.normal)))) * 180 / .pi
      let offset = plane.normal.dot(truth.normal) > 0 ? truth.offset : -truth.offset
      #expect(angle <= 0.2, "normal off by \(angle)°")
      #expect(abs(plane.offset - offset) <= 0.001, "offset off by \(abs(plane.offset - offset)) m")
    }
    // Classification and extent.
    let floor = try #require(planes.first { abs($0.offset) < 0.01 && $0.classification == .horizontal })
    #expect(floor.normal.y > 0.999)
    #expect(abs(floor.width - 3) < 0.1 && abs(floor.length - 3) < 0.1)
    #expect(planes.filter { $0.classification == .vertical }.count == 2)
    let table = try #require(planes.first { abs($0.offset - 0.75) < 0.01 })
    #expect(
      abs(min(table.width, table.length) - 0.6) < 0.05 && abs(max(table.width, table.length) - 1.0) < 0.05)
  }

  @Test(
    "in clutter of a quarter, half and three quarters of the points: every plane, none invented",
    arguments: [0.25, 0.5, 0.75], [11, 12] as [UInt64])
  func clutteredRooms(clutter: Double, seed: UInt64) throws {
    let (cloud, truths) = Self.room(seed: seed, clutter: clutter)
    // The defaults the command line uses, but for a threshold of 4σ: no minimum size beyond 100.
    let planes = try PlaneDetector(threshold: 0.008, seed: seed).detect(cloud)
    #expect(planes.count == truths.count, "\(planes.map { ($0.inliers.count, $0.rms, $0.offset) })")
    for truth in truths {
      let plane = try #require(
        planes.first {
          abs($0.normal.dot(truth.normal)) > 0.99
            && abs($0.offset - ($0.normal.dot(truth.normal) > 0 ? truth.offset : -truth.offset)) < 0.05
        }, "no plane for \(truth)")
      let angle = Double.acos(min(1, abs(plane.normal.dot(truth.normal)))) * 180 / .pi
      let offset = plane.normal.dot(truth.normal) > 0 ? truth.offset : -truth.offset
      #expect(angle <= 0.2, "normal off by \(angle)°")
      #expect(abs(plane.offset - offset) <= 0.001, "offset off by \(abs(plane.offset - offset)) m")
    }
  }

  @Test("clutter alone, evenly spread or in blobs, has no plane, nor a largest one")
  func clutterAlone() throws {
    var rng = SplitMix64(seed: 13)
    let cloud = PointCloud(points: rng.roomClutter(20_000))
    let detector = try PlaneDetector(threshold: 0.008)
    #expect(try detector.detect(cloud).isEmpty)
    #expect(try detector.largestPlane(cloud) == nil)
  }

  @Test("deterministic for a seed") func deterministicForASeed() throws {
    let (cloud, _) = Self.room(seed: 9)
    let detector = try PlaneDetector(threshold: 0.008, minimumInliers: 300, seed: 4)
    #expect(try detector.detect(cloud) == (try detector.detect(cloud)))
  }

  @Test("noise alone has no plane") func noiseAloneHasNoPlane() throws {
    var rng = SplitMix64(seed: 5)
    let points = (0..<5000).map { _ in SIMD3<Double>(rng.vector3(-1...1)) }
    let planes = try PlaneDetector(threshold: 0.008, minimumInliers: 300).detect(PointCloud(points: points))
    #expect(planes.isEmpty)
    #expect(try PlaneDetector().detect(PointCloud(points: [])).isEmpty)
  }

  @Test("the incremental detector grows planes across frames")
  func theIncrementalDetectorGrowsPlanesAcrossFrames() throws {
    let (cloud, truths) = Self.room(seed: 6)
    var incremental = IncrementalPlaneDetector(
      detector: try PlaneDetector(threshold: 0.008, minimumInliers: 300))
    // Ten frames of shuffled points.
    var rng = SplitMix64(seed: 7)
    let order = cloud.points.indices.shuffled(using: &rng)
    var floorID: Int? = nil
    var floorWidths: [Double] = []
    for frame in 0..<10 {
      let slice = order[(frame * order.count / 10)..<((frame + 1) * order.count / 10)].map {
        cloud.points[$0]
      }
      try incremental.add(slice)
      if let floor = incremental.planes.first(where: {
        abs($0.plane.offset) < 0.01 && $0.plane.classification == .horizontal
      }) {
        if floorID == nil { floorID = floor.id }
        #expect(floor.id == floorID)  // the same anchor, growing
        floorWidths.append(floor.plane.inliers.count > 0 ? floor.plane.width : 0)
      }
    }
    #expect(incremental.planes.count == truths.count)
    #expect(floorWidths.count >= 5)
  }

  @Test("point files are read and bad ones named") func pointFilesAreReadAndBadOnesNamed() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "arscene-plane-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    // XYZ with confidences.
    let xyz = dir.appendingPathComponent("a.xyz")
    try "# points\n0 0 0 2\n1,0,0,1\n0 0 1 2\n".write(to: xyz, atomically: true, encoding: .utf8)
    let cloud = try PointCloud.read(path: xyz.path)
    #expect(cloud.points.count == 3 && cloud.confidences == [2, 1, 2])
    try "0 0 0\n1 0 x\n".write(to: xyz, atomically: true, encoding: .utf8)
    #expect(throws: PoseError.badFile(path: xyz.path, line: 2, reason: "field 3 'x' is not a finite number"))
    {
      try PointCloud.read(path: xyz.path)
    }
    // ASCII and binary PLY with the same points.
    let points: [SIMD3<Float>] = [[0, 0, 0], [1, 2, 3], [-1.5, 0.25, 8]]
    let ascii = dir.appendingPathComponent("a.ply")
    try
      ("ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nend_header\n"
      + points.map { "\($0.x) \($0.y) \($0.z)" }.joined(separator: "\n") + "\n").write(
        to: ascii, atomically: true, encoding: .utf8)
    #expect(try PointCloud.read(path: ascii.path).points.count == 3)
    for endian in ["little", "big"] {
      var bytes = Array(
        "ply\nformat binary_\(endian)_endian 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nproperty uchar confidence\nend_header\n"
          .utf8)
      for p in points {
        for v in [p.x, p.y, p.z] {
          let bits = endian == "little" ? v.bitPattern.littleEndian : v.bitPattern.bigEndian
          withUnsafeBytes(of: bits) { bytes += $0 }
        }
        bytes.append(2)
      }
      let binary = dir.appendingPathComponent("b-\(endian).ply")
      try Data(bytes).write(to: binary)
      let read = try PointCloud.read(path: binary.path)
      #expect(read.points == points.map { SIMD3(Double($0.x), Double($0.y), Double($0.z)) })
      #expect(read.confidences == [2, 2, 2])
      try Data(bytes.dropLast(5)).write(to: binary)
      expectError(PoseError.self, "badFile") { try PointCloud.read(path: binary.path) }
    }
  }
}

extension PlaneDetectorTests {
  @Test("two tables at one height stay two planes") func twoTablesAtOneHeightStayTwoPlanes() throws {
    var rng = SplitMix64(seed: 44)
    var points: [SIMD3<Double>] = []
    for centreX in [-1.0, 1.0] {
      for _ in 0..<800 {
        points.append([
          centreX + Double.random(in: -0.4...0.4, using: &rng), 0.74 + 0.002 * rng.gaussian(),
          Double.random(in: -0.3...0.3, using: &rng),
        ])
      }
    }
    let planes = try PlaneDetector(threshold: 0.008, minimumInliers: 300).detect(PointCloud(points: points))
    #expect(planes.count == 2)
    #expect(planes.allSatisfy { abs(max($0.width, $0.length) - 0.8) < 0.05 })
  }
}

import ARMath
import ARTestSupport
import Foundation
import Testing

@testable import ARRecording

/// Accelerometer and gyroscope readings: Stray Scanner's `imu.csv` in each of its units,
/// ios_logger's `Accel.txt` and `Gyro.txt`, the JSON Lines round trip.
@Suite("Motion sensors")
struct MotionSensorTests {
  /// Every accelerometer and gyroscope reading of a recording, and its header.
  static func readings(_ path: String) throws -> ([AccelerometerSample], [GyroscopeSample], RecordingReader) {
    let reader = try RecordingReader(path: path)
    var (accelerations, rates) = ([AccelerometerSample](), [GyroscopeSample]())
    try reader.forEach { record in
      if case .accelerometer(let a) = record { accelerations.append(a) }
      if case .gyroscope(let g) = record { rates.append(g) }
    }
    return (accelerations, rates, reader)
  }

  @Test("today's Stray Scanner imu.csv: g of Core Motion's sign, read as the specific force in m/s²")
  func strayInG() throws {
    let (a, g, reader) = try Self.readings(Fixtures.path("recordings/stray_scanner"))
    #expect(a.count == 6 && g.count == 6 && reader.header.description?.contains("in g") == true)
    // Line 3: 3054.15, -0.998, 0.02, -0.05, 0.01, -0.02, 0.5.
    #expect(a[1].time == 3054.15 && g[1].time == 3054.15)
    #expect(a[1].acceleration == -AccelerometerSample.standardGravity * SIMD3(-0.998, 0.02, -0.05))
    #expect(g[1].rotationRate == [0.01, -0.02, 0.5])
  }

  @Test("the 2021–2025 imu.csv in m/s² is told by its magnitude; one of neither unit is refused")
  func strayUnits() throws {
    let folder = try TemporaryFolder()
    let odometry = try String(
      contentsOfFile: Fixtures.path("recordings/stray_scanner/odometry.csv"), encoding: .utf8)
    func capture(_ scale: Double, name: String) throws -> String {
      let path = folder.path + "/" + name
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
      _ = try folder.write(odometry, to: name + "/odometry.csv")
      let rows = (0..<5).map { i in "\(3054.14 + Double(i) / 100), \(-0.998 * scale), 0.1, 0.0, 0.0, 0.0, 0.5"
      }
      _ = try folder.write(
        (["timestamp, a_x, a_y, a_z, alpha_x, alpha_y, alpha_z"] + rows).joined(separator: "\n") + "\n",
        to: name + "/imu.csv")
      return path
    }
    let (a, _, reader) = try Self.readings(capture(9.81, name: "ms2"))
    #expect(reader.header.description?.contains("m/s²") == true)
    #expect(a.first?.acceleration == SIMD3(0.998 * 9.81, -0.1, -0.0))
    #expect(throws: RecordingError.self) { try Self.readings(capture(3, name: "neither")) }
    do {
      _ = try Self.readings(capture(3, name: "neither2"))
    } catch {
      #expect("\(error)".contains("imu.csv") && "\(error)".contains("unit cannot be told"))
    }
  }

  @Test("readings written a line late are put back in time order with a note; far later ones are refused")
  func reordering() throws {
    let folder = try TemporaryFolder()
    _ = try folder.write("1.0,0,0,0,0,0,0,1\n", to: "ios/ARposes.txt")
    let late = ["1.00,0.1,0,0", "1.02,0.3,0,0", "1.01,0.2,0,0", "1.03,0.4,0,0"]
    _ = try folder.write(late.joined(separator: "\r\n") + "\r\n", to: "ios/Gyro.txt")
    let (_, rates, reader) = try Self.readings(folder.path + "/ios")
    #expect(
      rates.map(\.time) == [1.00, 1.01, 1.02, 1.03] && rates.map(\.rotationRate.x) == [0.1, 0.2, 0.3, 0.4])
    #expect(reader.warnings.count == 1 && reader.warnings[0].contains("Gyro.txt:3:"))
    // Twelve lines late is past the window: an out-of-order reading, named.
    let far = (1...12).map { "1.\(String($0).leftPadded(to: 2)),0,0,0" } + ["1.00,0,0,0"]
    _ = try folder.write(far.joined(separator: "\r\n") + "\r\n", to: "far/Gyro.txt")
    #expect(throws: RecordingError.self) { try Self.readings(folder.path + "/far") }
  }

  @Test("accelerometer and gyroscope records round-trip through ARScene's JSON Lines")
  func roundTrip() throws {
    let folder = try TemporaryFolder()
    let path = folder.path + "/imu.jsonl"
    let writer = try RecordingWriter(path: path, header: RecordingHeader(source: "test", timeBase: .uptime))
    try writer.write(.accelerometer(AccelerometerSample(time: 1, acceleration: [0.125, -9.80665, 0.5])))
    try writer.write(.gyroscope(GyroscopeSample(time: 1, rotationRate: [0.25, 0, -1.5])))
    try writer.finish()
    let (a, g, _) = try Self.readings(path)
    #expect(a == [AccelerometerSample(time: 1, acceleration: [0.125, -9.80665, 0.5])])
    #expect(g == [GyroscopeSample(time: 1, rotationRate: [0.25, 0, -1.5])])
  }
}

/// The real iPhone's accelerometer against its own ARKit poses: the specific force must point
/// where ARKit's gravity-aligned world says up is.
@Suite(
  "Motion sensors of a real iPhone", .enabled(if: RealData.available, Comment(rawValue: RealData.absent)))
struct RealMotionSensorTests {
  @Test("ios_logger's Accel.txt is the specific force: up in the device is up in ARKit's world, to 1.5 m/s²")
  func specificForcePointsUp() throws {
    let reader = try RecordingReader(
      path: RealData.path("ar_recordings/ios_logger_iphone_2021-07-29T12-52-25"))
    var pose: RigidTransform<Double>?
    var residuals: [Double] = []
    // The device's axes are the back camera's turned −90° about z (the sensor mounted at 90°).
    let deviceFromCamera = Quaternion<Double>(angle: .degrees(-90), axis: [0, 0, 1])
    try reader.forEach { record in
      switch record {
      case .pose(let p): pose = p.worldFromCamera
      case .accelerometer(let a):
        guard let pose else { return }
        let up = deviceFromCamera.act(pose.rotation.conjugate.act([0, 1, 0]))
        residuals.append((a.acceleration - AccelerometerSample.standardGravity * up).length)
      default: break
      }
    }
    let mean = residuals.reduce(0, +) / Double(residuals.count)
    #expect(residuals.count > 4000 && mean < 1.5, "mean residual \(mean) m/s²")
  }
}

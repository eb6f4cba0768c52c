import ARFiles
import ARMath

/// The trajectory files of the evaluation tools (evo, rpg_trajectory_evaluation), read and
/// written so that the same data goes to and from them.
///
/// | format | a line | time |
/// | --- | --- | --- |
/// | ``tum`` | `t tx ty tz qx qy qz qw` | seconds |
/// | ``euroc`` | `t, tx, ty, tz, qw, qx, qy, qz[, …]` (CSV, `#` header) | nanoseconds |
/// | ``kitti`` | the 3×4 matrix `[R | t]`, 12 numbers, row by row | none: the line's index |
///
/// Poses are `worldFromCamera` (the body or camera frame to the trajectory's world).
/// Quaternions are normalised; one of zero length, a timestamp before the one before, or a
/// line that is not numbers is an error naming the file, line and field. A timestamp equal to
/// the one before is kept with a warning, as evo keeps it: real files have them (TUM's
/// fr2_desk ground truth, EuRoC estimates).
public enum TrajectoryFormat: String, Sendable, CaseIterable {
  /// TUM RGB-D's text (`t tx ty tz qx qy qz qw`), EuRoC's CSV, KITTI's 3×4 matrices.
  case tum, euroc, kitti

  /// The recording layout this format is, as a recording of poses.
  public var recordingFormat: RecordingFormat {
    switch self {
    case .tum: .tum
    case .euroc: .euroc
    case .kitti: .kitti
    }
  }

  /// Reads the trajectory file at `path`.
  public func read(path: String) throws(TrajectoryError) -> Trajectory {
    var warnings: [String] = []
    return try read(path: path, warnings: &warnings)
  }

  /// Reads the trajectory file at `path`, appending to `warnings` a line for each timestamp
  /// kept although it repeats the one before (`path:line: …`).
  public func read(path: String, warnings: inout [String]) throws(TrajectoryError) -> Trajectory {
    // The first lines must be this format's (times in its unit, not nanoseconds read as seconds).
    do { try PoseFileContent.verify(path, as: recordingFormat) } catch {
      switch error {
      case .badRecord(let p, let line, let field, let reason):
        throw .badLine(path: p, line: line, field: field, reason: reason)
      case .unreadable(let p, let reason), .unknownFormat(let p, let reason):
        throw .unreadable(path: p, reason: reason)
      }
    }
    let bytes: [UInt8]
    do { bytes = try FileIO.readText(path) } catch { throw .unreadable(path: path, reason: error.reason) }
    return try parse(bytes: bytes, path: path, warnings: &warnings)
  }

  /// Parses trajectory text; `path` names it in errors.
  public func parse(_ text: String, path: String) throws(TrajectoryError) -> Trajectory {
    var warnings: [String] = []
    return try parse(bytes: Array(text.utf8), path: path, warnings: &warnings)
  }

  /// Parses the bytes of a trajectory file, line by line without making strings.
  func parse(bytes: [UInt8], path: String, warnings: inout [String]) throws(TrajectoryError) -> Trajectory {
    var timestamps: [Double] = [], poses: [RigidTransform<Double>] = [], written: [WrittenPose] = []
    var lineNumber = 0, start = 0
    while start < bytes.count {
      let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
      lineNumber += 1
      let parsed = try bytes.withUnsafeBufferPointer { all throws(TrajectoryError) in
        try parseWrittenLine(
          bytes: UnsafeBufferPointer(rebasing: all[start..<end]), path: path, lineNumber: lineNumber,
          index: poses.count)
      }
      start = end + 1
      guard let (time, pose, asWritten) = parsed else { continue }
      if let asWritten { written.append(asWritten) }
      if let last = timestamps.last, time == last {
        warnings.append(
          "\(path):\(lineNumber): timestamp: \(time) repeats the line before's; kept, as evo keeps it")
      } else if let last = timestamps.last, !(time > last) {
        throw .badLine(
          path: path, line: lineNumber, field: "timestamp",
          reason: "\(time) is before the line before's \(last) (out of order)")
      }
      timestamps.append(time)
      poses.append(pose)
    }
    var trajectory = Trajectory(timestamps: timestamps, poses: poses)
    if self == .kitti { trajectory.written = written }
    return trajectory
  }

  /// The time and pose on one line, or nil for a blank line or a comment; `index` is the number
  /// of poses before it (a KITTI pose's time).
  public func parseLine(_ line: some StringProtocol, path: String, lineNumber: Int, index: Int)
    throws(TrajectoryError) -> (time: Double, pose: RigidTransform<Double>)?
  {
    var bytes = Array(line.utf8)
    return try bytes.withUnsafeMutableBufferPointer { b throws(TrajectoryError) in
      try parseLine(bytes: UnsafeBufferPointer(b), path: path, lineNumber: lineNumber, index: index)
    }
  }

  /// ``parseLine(_:path:lineNumber:index:)`` on a line's bytes.
  public func parseLine(bytes line: UnsafeBufferPointer<UInt8>, path: String, lineNumber: Int, index: Int)
    throws(TrajectoryError) -> (time: Double, pose: RigidTransform<Double>)?
  {
    try parseWrittenLine(bytes: line, path: path, lineNumber: lineNumber, index: index).map {
      ($0.time, $0.pose)
    }
  }

  /// A line's time and pose, and for KITTI its matrix as written (``WrittenPose``).
  func parseWrittenLine(bytes line: UnsafeBufferPointer<UInt8>, path: String, lineNumber: Int, index: Int)
    throws(TrajectoryError) -> (time: Double, pose: RigidTransform<Double>, written: WrittenPose?)?
  {
    let v: [Double]
    do {
      guard
        let values = try NumberText.parseLine(
          bytes: line, columns: self == .kitti ? 12 : 8, source: path, lineNumber: lineNumber,
          extraColumns: self == .euroc)
      else { return nil }
      v = values
    } catch { throw TrajectoryError(error, path: path, line: lineNumber) }
    switch self {
    case .tum:
      return (
        v[0], try Self.pose([v[1], v[2], v[3]], quaternion: [v[4], v[5], v[6], v[7]], path, lineNumber, 5),
        nil
      )
    case .euroc:
      return (
        v[0] * 1e-9,
        try Self.pose([v[1], v[2], v[3]], quaternion: [v[5], v[6], v[7], v[4]], path, lineNumber, 5), nil
      )
    case .kitti:
      do { return (Double(index), try Self.rowMajorPose(v, from: 0), Self.writtenPose(v, from: 0)) } catch {
        throw .badLine(path: path, line: lineNumber, field: "rotation", reason: error.reason)
      }
    }
  }

  /// Why 12 numbers are not a pose: their rotation is not one.
  struct NotARotation: Error {
    var reason: String
  }

  /// `[R | t]` from 12 numbers row by row starting at `start`: a KITTI line, or an ARKit Data
  /// Logger line after its time. R must be a rotation to the files' printed precision (6 to 9
  /// digits): its determinant within 1e-3 of 1.
  static func rowMajorPose(_ v: [Double], from start: Int) throws(NotARotation) -> RigidTransform<Double> {
    let written = writtenPose(v, from: start)
    guard abs(written.rotation.determinant - 1) < 1e-3 else {
      throw NotARotation(reason: "not a rotation (determinant \(written.rotation.determinant))")
    }
    return RigidTransform(rotationMatrix: written.rotation, translation: written.translation)
  }

  /// `[R | t]` from 12 numbers row by row starting at `start`, as written.
  static func writtenPose(_ v: [Double], from start: Int) -> WrittenPose {
    let r = { (row: Int, column: Int) in v[start + 4 * row + column] }
    return WrittenPose(
      rotation: Matrix3(
        rows: [r(0, 0), r(0, 1), r(0, 2)], [r(1, 0), r(1, 1), r(1, 2)], [r(2, 0), r(2, 1), r(2, 2)]),
      translation: [r(0, 3), r(1, 3), r(2, 3)])
  }

  static func pose(
    _ t: SIMD3<Double>, quaternion q: SIMD4<Double>, _ path: String, _ line: Int, _ firstField: Int
  ) throws(TrajectoryError) -> RigidTransform<Double> {
    guard let unit = Quaternion(vector: q).normalizedOrNil() else {
      throw .badLine(
        path: path, line: line, field: "fields \(firstField)–\(firstField + 3)",
        reason: "a quaternion of zero length")
    }
    // Files print 4 to 9 digits; a norm further from 1 is not a quaternion but other columns
    // (an ARCore Data Logger's `t_ns qx qy qz qw tx ty tz` read as TUM): never read as one.
    guard PoseFileContent.isUnitQuaternion(q) else {
      throw .badLine(
        path: path, line: line, field: "fields \(firstField)–\(firstField + 3)",
        reason: "not a unit quaternion (norm \(String(format: "%.4g", q.length))): not this layout's line?")
    }
    return RigidTransform(rotation: unit, translation: t)
  }

  /// The trajectory as this format's text (numbers in their shortest exact form; EuRoC
  /// timestamps rounded to whole nanoseconds).
  public func text(_ trajectory: Trajectory) -> String {
    var out = header
    for (time, pose) in zip(trajectory.timestamps, trajectory.poses) { out += line(time: time, pose: pose) }
    return out
  }

  /// What a file of this format starts with (EuRoC's column names), or nothing.
  public var header: String {
    self == .euroc ? "#timestamp [ns],p_x [m],p_y [m],p_z [m],q_w [],q_x [],q_y [],q_z []\n" : ""
  }

  /// One pose as a line of this format, with its newline.
  public func line(time: Double, pose: RigidTransform<Double>) -> String {
    let t = pose.translation, q = pose.rotation.vector
    switch self {
    case .tum:
      return "\(time) \(t.x) \(t.y) \(t.z) \(q.x) \(q.y) \(q.z) \(q.w)\n"
    case .euroc:
      return "\(Int64((time * 1e9).rounded())),\(t.x),\(t.y),\(t.z),\(q.w),\(q.x),\(q.y),\(q.z)\n"
    case .kitti:
      let r = pose.rotation.matrix
      return (0..<3).map { i in "\(r[0, i]) \(r[1, i]) \(r[2, i]) \(t[i])" }.joined(separator: " ") + "\n"
    }
  }

  /// Writes the trajectory to `path` atomically.
  public func write(_ trajectory: Trajectory, to path: String) throws(TrajectoryError) {
    do { try FileIO.writeAtomically(Array(text(trajectory).utf8), to: path) } catch {
      throw .unreadable(path: path, reason: error.description)
    }
  }
}

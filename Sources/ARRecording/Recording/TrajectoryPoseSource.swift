import ARMath

extension LineRecordSource {
  /// The poses of a trajectory file in `format`, streamed line by line, each mapped by
  /// `camera` (the file's pose to the camera's, ARKit's convention): a trajectory read as a
  /// recording, or a dataset's ground truth. Bad lines are errors naming the line and field.
  static func poses(
    _ path: String, _ format: TrajectoryFormat,
    camera: @escaping (RigidTransform<Double>) -> RigidTransform<Double> = { $0 }
  ) throws(RecordingError) -> LineRecordSource {
    var count = 0
    return try LineRecordSource(path: path) { bytes, line throws(RecordingError) in
      do throws(TrajectoryError) {
        guard
          let (time, pose) = try bytes.withUnsafeBufferPointer({ b throws(TrajectoryError) in
            try format.parseLine(bytes: b, path: path, lineNumber: line, index: count)
          })
        else { return [] }
        count += 1
        return [.pose(CameraPoseSample(time: time, worldFromCamera: camera(pose)))]
      } catch {
        if case .badLine(let p, let l, let field, let reason) = error {
          throw RecordingError.badRecord(path: p, line: l, field: field, reason: reason)
        }
        throw RecordingError.unreadable(path: path, reason: error.description)
      }
    }
  }
}

import ARMath
import Foundation

/// Reads a recording in any layout ARScene knows (``RecordingFormat``) as one stream of
/// records in time order, streamed: memory stays that of a few lines, whatever the size.
///
/// Within each stream, times must increase; a record that repeats or goes back in time, a
/// malformed line, a value out of range, is an error naming file, line and field
/// (``RecordingError``), or with `lenient` a warning: the record is skipped and counted in
/// ``skipped``. Trajectory files (TUM, EuRoC, KITTI) are the exception for a repeated time:
/// real ones have them, and evo keeps such a pose, so it is kept with a warning. Records a layout itself marks invalid (iOS reports a fix it has not got with a
/// negative accuracy) are skipped and counted either way.
public final class RecordingReader {
  /// The recording's file or folder.
  public let path: String
  /// Its layout.
  public let format: RecordingFormat
  /// What it says about itself (for layouts other than ARScene's, what ARScene knows of them).
  public let header: RecordingHeader
  private let log: ReadLog
  private var sources: [any RecordSource]
  private var heads: [RecordingRecord?]
  private var started = false
  /// The camera the user stated over the frames' own.
  private let camera: RecordingCamera?
  /// Each stream's last time, by the stream's place in `RecordingStream.allCases` (an array,
  /// not a dictionary: this is looked at once a record).
  private var lastTimes = [Double?](repeating: nil, count: RecordingStream.allCases.count)

  /// Opens the recording at `path`, its layout detected from the name or contents unless given.
  /// `parallel`: ARScene's JSON Lines are parsed on worker threads (the default) or, false, on
  /// the caller's thread alone, for a caller that runs one reader a core.
  ///
  /// `framesPerSecond` spaces the frames of a capture that has no times (a `transforms.json`, a
  /// 3D Recorder file with a projection column; 30 when not given); other layouts keep their own. `camera` states the frames' camera over
  /// what the recording says (``RecordingCamera``): each field given replaces that field in
  /// every frame.
  public init(
    path: String, format: RecordingFormat? = nil, lenient: Bool = false, parallel: Bool = true,
    framesPerSecond: Double? = nil, camera: RecordingCamera? = nil
  ) throws(RecordingError) {
    self.path = path
    self.camera = camera.flatMap { $0.isEmpty ? nil : $0 }
    if let format { self.format = format } else { self.format = try RecordingFormat(detecting: path) }
    log = ReadLog(lenient: lenient)
    let opened: (RecordingHeader, [any RecordSource])
    switch self.format {
    case .arscene: opened = try JSONLinesRecording.open(path: path, log: log, parallel: parallel)
    case .iosLogger: opened = try IOSLoggerLayout.open(path: path, log: log)
    case .strayScanner: opened = try StrayScannerLayout.open(path: path, log: log)
    case .arkitScenes: opened = try ARKitScenesLayout.open(path: path, log: log)
    case .arkitDataLogger: opened = try ARKitDataLoggerLayout.open(path: path, log: log)
    case .arcoreDataLogger: opened = try ARCoreDataLoggerLayout.open(path: path, log: log)
    case .tumRGBD: opened = try TUMRGBDLayout.open(path: path, log: log)
    case .transformsJSON:
      opened = try TransformsJSONLayout.open(path: path, framesPerSecond: framesPerSecond, log: log)
    case .eurocFolder: opened = try EuRoCFolderLayout.open(path: path, log: log)
    case .record3D: opened = try Record3DLayout.open(path: path, log: log)
    case .record3DFolder: opened = try Record3DFolderLayout.open(path: path, log: log)
    case .threeDRecorder:
      opened = try ThreeDRecorderLayout.open(path: path, framesPerSecond: framesPerSecond, log: log)
    case .tum: opened = try Self.trajectory(path, .tum, log)
    case .euroc: opened = try Self.trajectory(path, .euroc, log)
    case .kitti: opened = try Self.trajectory(path, .kitti, log)
    }
    (header, sources) = opened
    heads = []
  }

  /// The folder the recording's relative paths (frames, depth) start from: the recording's
  /// own folder, or the folder of its file.
  public var baseFolder: String {
    var isDirectory: ObjCBool = false
    _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
    return isDirectory.boolValue ? path : RecordingFormat.parent(path)
  }

  /// The fraction of the recording's files read so far, 0…1 (read ahead by a buffer).
  public var fractionRead: Double {
    let (read, total) = sources.reduce((Int64(0), Int64(0))) {
      ($0.0 + $1.progress.read, $0.1 + $1.progress.total)
    }
    return total > 0 ? min(1, Double(read) / Double(total)) : 0
  }

  /// Records skipped (invalid in their layout, or bad with `lenient`).
  public var skipped: Int { log.skipped }
  /// Why, one line each (the first 100).
  public var warnings: [String] { log.warnings }

  /// The next record in time order (on equal times, in the order of ``RecordingStream``), or
  /// nil at the end.
  public func next() throws(RecordingError) -> RecordingRecord? {
    if !started {
      started = true
      heads = []
      for source in sources { heads.append(try pull(source)) }
    }
    var best: Int?
    for (i, head) in heads.enumerated() {
      guard let head else { continue }
      if let b = best, let current = heads[b], !(head.time < current.time) { continue }
      best = i
    }
    guard let best, let record = heads[best] else { return nil }
    heads[best] = try pull(sources[best])
    if let camera, case .frame(let frame) = record { return .frame(camera.applied(to: frame)) }
    return record
  }

  /// Calls `body` with every remaining record, in time order.
  public func forEach(_ body: (RecordingRecord) throws(RecordingError) -> Void) throws(RecordingError) {
    while let record = try next() { try body(record) }
  }

  /// The source's next record that keeps its stream in time order.
  private func pull(_ source: any RecordSource) throws(RecordingError) -> RecordingRecord? {
    while true {
      let record: RecordingRecord?
      do { record = try source.next() } catch {
        try log.tolerate(error)
        continue
      }
      guard let record else { return nil }
      let stream = record.stream
      if let last = lastTimes[stream.ordinal], record.time == last, format.isTrajectory {
        let (file, line) = source.location
        log.note("\(file):\(line): t: \(record.time) repeats the pose before's time; kept, as evo keeps it")
      } else if let last = lastTimes[stream.ordinal], !(record.time > last) {
        let (file, line) = source.location
        try log.tolerate(
          .badRecord(
            path: file, line: line, field: "t",
            reason:
              "\(record.time) s is not after the \(stream.rawValue) record before (\(last) s): \(record.time == last ? "a repeated" : "an out-of-order") timestamp"
          ))
        continue
      }
      lastTimes[stream.ordinal] = record.time
      return record
    }
  }

  /// A trajectory file as a recording of poses, streamed line by line.
  private static func trajectory(_ path: String, _ format: TrajectoryFormat, _ log: ReadLog)
    throws(RecordingError) -> (RecordingHeader, [any RecordSource])
  {
    try PoseFileContent.verify(path, as: format.recordingFormat)
    let source = try LineRecordSource.poses(path, format)
    let timeBase: RecordingTimeBase = format == .kitti ? .index : .unknown
    return (RecordingHeader(source: format.rawValue, timeBase: timeBase), [source])
  }
}

import ARImage
import ARMarkers
import ARMath
import ARRecording

/// The markers in each frame of a recording that has an image, reported as
/// `arscene marker detect --recording` prints them (`MarkerFrameReport`): frames read in order
/// and detected in batches of four a thread, each batch reported in order before the next is
/// read, so memory holds one batch's images and no more.
public struct RecordingMarkerDetection: Sendable {
  /// The detector run on each frame.
  public var detector: MarkerDetector
  /// What is reported beyond the markers. Without a camera, each frame's own intrinsics and lens
  /// pose its markers, rig and board (a board is reported unposed where a frame has none).
  public var reporting: MarkerReporting
  /// Worker threads, at least 1.
  public var threads: Int

  /// A detection of `detector`'s markers reported as `reporting` says, on `threads` threads.
  public init(detector: MarkerDetector, reporting: MarkerReporting = MarkerReporting(), threads: Int = 1) {
    (self.detector, self.reporting, self.threads) = (detector, reporting, max(1, threads))
  }

  /// Why a frame could not be reported: the recording, the frame and the reason.
  public struct FrameFailure: Error, Sendable, CustomStringConvertible {
    /// The recording.
    public var path: String
    /// The frame's index and time (seconds, the recording's clock).
    public var index: Int, time: Double
    /// What went wrong (its image, its pose).
    public var reason: String

    public var description: String { "\(path): frame \(index) at \(time) s: \(reason)" }
  }

  /// Reads `reader` to its end and gives `emit` each frame's report, in the recording's order
  /// (the frames before a failing one are emitted first, as one frame at a time would be);
  /// `batchDone` hears how many frames each batch held.
  /// - Returns: The number of frames reported (0: no frame has an image).
  /// - Throws: `RecordingError` for the recording, ``FrameFailure`` for a frame.
  public func run(
    _ reader: RecordingReader, emit: (MarkerFrameReport) throws -> Void, batchDone: (Int) -> Void = { _ in }
  ) throws -> Int {
    let images = RecordingFrameImages(baseFolder: reader.baseFolder)
    var reported = 0, atEnd = false
    var batch: [(frame: CameraFrameSample, image: () throws -> RGBA8Image)] = []
    while !atEnd {
      let record = try reader.next()
      if case .frame(let frame) = record, let source = frame.image {
        // Image files decode on other threads from here on; a video's frames come in order.
        do { batch.append((frame, try images.pendingImage(source, in: frame.archive))) } catch {
          throw FrameFailure(path: reader.path, index: frame.index, time: frame.time, reason: "\(error)")
        }
      }
      atEnd = record == nil
      guard batch.count == 4 * threads || (atEnd && !batch.isEmpty) else { continue }
      let frames = batch.map(\.frame), pictures = batch.map { pending in Result { try pending.image() } }
      let results = LockedResults<MarkerFrameReport>(count: frames.count)
      let detection = self, path = reader.path
      forEachBand(frames.count, threads: threads) { k in
        results.set(k) {
          do { return try detection.report(frames[k], picture: try pictures[k].get()) } catch {
            throw FrameFailure(path: path, index: frames[k].index, time: frames[k].time, reason: "\(error)")
          }
        }
      }
      for result in results.all() { try emit(try result.get()) }
      reported += frames.count
      batchDone(frames.count)
      batch.removeAll(keepingCapacity: true)
    }
    return reported
  }

  /// One frame's report: the given camera, else the frame's own.
  func report(_ frame: CameraFrameSample, picture: RGBA8Image) throws -> MarkerFrameReport {
    var reporting = self.reporting
    let posing = reporting.markerSide != nil || reporting.rig != nil
    if reporting.camera == nil, posing || reporting.board != nil {
      if let own = frame.intrinsics {
        (reporting.camera, reporting.lens) = (own, frame.lens)
      } else if posing {
        throw MarkerReporting.Failure.noCamera
      }
    }
    let markers = try reporting.report(detector.detect(picture), in: picture)
    return MarkerFrameReport(frame: frame.index, time: frame.time, markers: markers)
  }
}

import ARMath

/// One time-stamped record of a recorded AR session: what a phone logs while it tracks.
///
/// Times are seconds on the recording's own clock (``RecordingHeader/timeBase`` says which);
/// all streams of one recording share it.
public indirect enum RecordingRecord: Sendable, Equatable {
  /// The tracker's camera pose.
  case pose(CameraPoseSample)
  /// A camera frame: intrinsics, image, depth.
  case frame(CameraFrameSample)
  /// A GNSS fix.
  case gps(GPSFix)
  /// A compass heading.
  case heading(HeadingSample)
  /// A raw magnetometer reading.
  case magnetometer(MagnetometerSample)
  /// An accelerometer reading (the specific force).
  case accelerometer(AccelerometerSample)
  /// A gyroscope reading.
  case gyroscope(GyroscopeSample)
  /// A tap on the screen.
  case tap(TapSample)
  /// Where the camera truly was.
  case truth(GroundTruthSample)
  /// The platform's geo pose of the camera, with its claimed accuracies.
  case geoPose(GeoPoseSample)

  /// The record's time, seconds.
  public var time: Double {
    switch self {
    case .pose(let r): r.time
    case .frame(let r): r.time
    case .gps(let r): r.time
    case .heading(let r): r.time
    case .magnetometer(let r): r.time
    case .accelerometer(let r): r.time
    case .gyroscope(let r): r.time
    case .tap(let r): r.time
    case .truth(let r): r.time
    case .geoPose(let r): r.time
    }
  }

  /// The stream the record belongs to.
  public var stream: RecordingStream {
    switch self {
    case .pose: .pose
    case .frame: .frame
    case .gps: .gps
    case .heading: .heading
    case .magnetometer: .magnetometer
    case .accelerometer: .accelerometer
    case .gyroscope: .gyroscope
    case .tap: .tap
    case .truth: .truth
    case .geoPose: .geoPose
    }
  }
}

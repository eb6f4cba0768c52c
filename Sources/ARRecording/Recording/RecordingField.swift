/// A member name of ARScene's recording format (docs/recording.md): every field of the header
/// and of each record type. Lines are read by matching their keys' bytes against these names, so
/// that no key of a million-line file becomes a `String`.
enum RecordingField: Int, CaseIterable, Sendable {
  case type
  case t
  case format
  case version
  case source
  case timeBase
  case description
  case translation
  case rotationXYZW
  case tracking
  case trackingReason
  case index
  case intrinsics
  case size
  case image
  case video
  case videoFrame
  case depth
  case confidence
  case depthPerMetre
  case archive
  case depthEncoding
  case depthSize
  case distortion
  case fisheye
  case latitude
  case longitude
  case height
  case altitudeMSL
  case horizontalAccuracy
  case verticalAccuracy
  case courseDegrees
  case speed
  case trueHeadingDegrees
  case magneticHeadingDegrees
  case accuracyDegrees
  case fieldMicrotesla
  case accelerationMetresPerSecondSquared
  case rotationRateRadiansPerSecond
  case point
  case expected
  case localFromCameraXYZW
  case localFromWorldTranslation
  case localFromWorldRotationXYZW
  case yawAccuracyDegrees
  case trackingState
  case accuracyLevel

  /// The name as the format spells it.
  var name: String {
    switch self {
    case .type: "type"
    case .t: "t"
    case .format: "format"
    case .version: "version"
    case .source: "source"
    case .timeBase: "time_base"
    case .description: "description"
    case .translation: "translation"
    case .rotationXYZW: "rotation_xyzw"
    case .tracking: "tracking"
    case .trackingReason: "tracking_reason"
    case .index: "index"
    case .intrinsics: "intrinsics"
    case .size: "size"
    case .image: "image"
    case .video: "video"
    case .videoFrame: "video_frame"
    case .depth: "depth"
    case .confidence: "confidence"
    case .depthPerMetre: "depth_per_metre"
    case .archive: "archive"
    case .depthEncoding: "depth_encoding"
    case .depthSize: "depth_size"
    case .distortion: "distortion"
    case .fisheye: "fisheye"
    case .latitude: "latitude"
    case .longitude: "longitude"
    case .height: "height"
    case .altitudeMSL: "altitude_msl"
    case .horizontalAccuracy: "horizontal_accuracy"
    case .verticalAccuracy: "vertical_accuracy"
    case .courseDegrees: "course_deg"
    case .speed: "speed"
    case .trueHeadingDegrees: "true_heading_deg"
    case .magneticHeadingDegrees: "magnetic_heading_deg"
    case .accuracyDegrees: "accuracy_deg"
    case .fieldMicrotesla: "field_ut"
    case .accelerationMetresPerSecondSquared: "acceleration_m_s2"
    case .rotationRateRadiansPerSecond: "rotation_rate_rad_s"
    case .point: "point"
    case .expected: "expected"
    case .localFromCameraXYZW: "local_from_camera_xyzw"
    case .localFromWorldTranslation: "local_from_world_translation"
    case .localFromWorldRotationXYZW: "local_from_world_rotation_xyzw"
    case .yawAccuracyDegrees: "yaw_accuracy_deg"
    case .trackingState: "tracking_state"
    case .accuracyLevel: "accuracy_level"
    }
  }

  /// The field spelt `bytes[start..<end]`, or nil if the name is not one of the format's.
  static func named(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> RecordingField? {
    let length = end - start
    guard length < byLength.count else { return nil }
    candidates: for (name, field) in byLength[length] {
      for k in 0..<length where name[k] != bytes[start + k] { continue candidates }
      return field
    }
    return nil
  }

  /// The fields' names as bytes, by length: a key is compared only with names of its length.
  private static let byLength: [[(name: [UInt8], field: RecordingField)]] = {
    var table = [[(name: [UInt8], field: RecordingField)]](
      repeating: [], count: allCases.map(\.name.utf8.count).max()! + 1)
    for field in allCases { table[field.name.utf8.count].append((Array(field.name.utf8), field)) }
    return table
  }()
}

/// A set of ``RecordingField``s: the members a record type may have.
struct RecordingFieldSet: ExpressibleByArrayLiteral, Sendable {
  private var bits: UInt64 = 0

  init(arrayLiteral fields: RecordingField...) {
    for field in fields { bits |= Self.bit(field) }
  }

  func contains(_ field: RecordingField) -> Bool { bits & Self.bit(field) != 0 }

  mutating func insert(_ field: RecordingField) { bits |= Self.bit(field) }

  private static func bit(_ field: RecordingField) -> UInt64 {
    1 << UInt64(field.rawValue)
  }
}

/// The members each line of the format may have: built once, not per line.
extension RecordingFieldSet {
  static let header: RecordingFieldSet = [.type, .format, .version, .source, .timeBase, .description]
  static let pose: RecordingFieldSet = [.type, .t, .translation, .rotationXYZW, .tracking, .trackingReason]
  static let frame: RecordingFieldSet = [
    .type, .t, .index, .intrinsics, .size, .image, .video, .videoFrame, .depth, .confidence, .depthPerMetre,
    .distortion, .fisheye, .archive, .depthEncoding, .depthSize,
  ]
  static let gps: RecordingFieldSet = [
    .type, .t, .latitude, .longitude, .height, .altitudeMSL, .horizontalAccuracy, .verticalAccuracy,
    .courseDegrees, .speed,
  ]
  static let heading: RecordingFieldSet = [
    .type, .t, .trueHeadingDegrees, .magneticHeadingDegrees, .accuracyDegrees,
  ]
  static let magnetometer: RecordingFieldSet = [.type, .t, .fieldMicrotesla]
  static let accelerometer: RecordingFieldSet = [.type, .t, .accelerationMetresPerSecondSquared]
  static let gyroscope: RecordingFieldSet = [.type, .t, .rotationRateRadiansPerSecond]
  static let tap: RecordingFieldSet = [.type, .t, .point, .expected]
  static let geoPose: RecordingFieldSet = [
    .type, .t, .latitude, .longitude, .height, .localFromCameraXYZW, .horizontalAccuracy, .verticalAccuracy,
    .yawAccuracyDegrees, .trackingState, .accuracyLevel,
  ]
  static let truth: RecordingFieldSet = [
    .type, .t, .latitude, .longitude, .height, .localFromCameraXYZW, .localFromWorldTranslation,
    .localFromWorldRotationXYZW,
  ]
}

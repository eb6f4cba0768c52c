import Foundation

extension SceneFile {
  /// The fields a scene file may have, as a tree. Decoding alone ignores unknown keys, so a typo
  /// (`tranform`) would silently drop a setting: every key is checked against this first.
  indirect enum Shape: Sendable {
    case object([String: Shape])
    case array(Shape)
    case value
  }

  static let shape: Shape = .object([
    "output": .object(["width": .value, "height": .value]),
    "background": .object(["color": .value, "image": .value, "resample": .value]),
    "camera": .object([
      "intrinsics": .object(["fx": .value, "fy": .value, "cx": .value, "cy": .value]),
      "vertical_fov_deg": .value, "world_from_camera": .value,
      "look_at": .object(["eye": .value, "target": .value, "up": .value]), "near": .value, "far": .value,
      "distortion": .value, "fisheye": .value,
    ]),
    "lights": .object([
      "ambient": .value,
      "directional": .array(.object(["direction": .value, "color": .value, "intensity": .value])),
      "point": .array(.object(["position": .value, "color": .value, "intensity": .value])),
    ]),
    "objects": .array(
      .object([
        "name": .value, "model": .value, "world_from_model": .value, "cull_back_faces": .value,
        "transform": .object([
          "translation": .value, "rotation_xyzw": .value, "yaw_deg": .value, "scale": .value,
        ]),
        "points": .object(["file": .value, "from_model": .value, "radius": .value, "color": .value]),
        "label": .object(["text": .value, "height": .value, "distance": .value]), "crs": .value,
        "anchor": .object([
          "geo": .object([
            "latitude": .value, "longitude": .value, "height": .value, "altitude_msl": .value,
            "heading_deg": .value,
          ]),
          "marker": .object(["size": .value, "corners": .value]),
          "plane": .object(["points": .value, "threshold": .value, "select": .value, "position": .value]),
        ]),
      ])),
    "geo": .object([
      "origin": .object(["latitude": .value, "longitude": .value, "height": .value, "altitude_msl": .value]),
      "session_alignment": .object(["yaw_deg": .value, "origin_enu": .value]),
    ]),
    "shadow": .object([
      "plane": .object(["point": .value, "normal": .value]), "light": .value, "opacity": .value,
      "softness": .value, "resolution": .value,
    ]),
    "film": .value,
    "control_points": .array(
      .object([
        "name": .value, "sigma_m": .value, "heading_deg": .value,
        "geo": .object(["latitude": .value, "longitude": .value, "height": .value, "altitude_msl": .value]),
        "marker": .object(["dictionary": .value, "id": .value, "size": .value]),
      ])),
  ])

  /// The JSON path of the first key that `shape` does not allow, with why; `nil` when all fit.
  static func firstUnknownField(_ json: Any, _ shape: Shape = shape, at path: String = "") -> (
    String, String
  )? {
    switch (shape, json) {
    case (.object(let fields), let dictionary as [String: Any]):
      for key in dictionary.keys.sorted() {
        let here = path.isEmpty ? key : path + "." + key
        guard let inner = fields[key] else {
          let reason = "unknown field (allowed: \(fields.keys.sorted().joined(separator: ", ")))"
          return (here, reason)
        }
        if let found = firstUnknownField(dictionary[key]!, inner, at: here) { return found }
      }
    case (.array(let element), let array as [Any]):
      for (i, item) in array.enumerated() {
        if let found = firstUnknownField(item, element, at: path + "[\(i)]") { return found }
      }
    default:
      break  // values, and type mismatches, which decoding reports with their own message
    }
    return nil
  }
}

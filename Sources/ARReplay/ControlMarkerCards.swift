import ARGeo
import ARImage
import ARMarkers
import ARMath
import ARMesh
import ARRender

/// The surveyed markers among a site's control points as printed cards in the world: what
/// `arscene simulate --frames` draws into its frames, so that validation can find them there.
public enum ControlMarkerCards {
  /// Draw calls of every marker control point in `controlPoints`: a card with one white cell of
  /// quiet zone around the marker, upright at the point, its printed side facing the marker
  /// frame's +Z (`ControlPoint.Marker`), in the geographic world at `frame`'s origin (x east,
  /// y up, z south, metres).
  ///
  /// - Throws: ``ControlMarkerCardError`` naming the point whose dictionary or id is unknown.
  public static func drawCalls(_ controlPoints: [ControlPoint], in frame: LocalTangentFrame)
    throws(ControlMarkerCardError) -> [DrawCall]
  {
    var calls: [DrawCall] = []
    for point in controlPoints {
      guard let marker = point.marker else { continue }
      guard let dictionary = MarkerDictionary.named(marker.dictionary) else {
        throw .unknownDictionary(point: point.name, dictionary: marker.dictionary)
      }
      let across = dictionary.size + 4
      let image: RGBA8Image
      do { image = try dictionary.image(id: marker.id, pixels: across * 16, quietZone: 1) } catch {
        throw .badMarker(point: point.name, reason: error.description)
      }
      let half = Float(marker.size / 2 * Double(across) / Double(dictionary.size + 2))
      let texture = "control-marker:\(point.name)"
      var material = Material(name: texture)
      material.diffuse = SIMD3(1, 1, 1)
      material.diffuseTexture = TextureReference(path: texture)
      // Corners top-left, top-right, bottom-right, bottom-left; texture v up (v = 0 at the
      // image's bottom row), two triangles counter-clockwise seen from +Z.
      let mesh = Mesh(
        positions: [[-half, half, 0], [half, half, 0], [half, -half, 0], [-half, -half, 0]],
        normals: Array(repeating: [0, 0, 1], count: 4), texcoords: [[0, 1], [1, 1], [1, 0], [0, 0]],
        indices: [0, 3, 2, 0, 2, 1], materials: [material])
      let pose = GeoAnchor(coordinate: point.coordinate, heading: marker.heading).geoWorldFromAnchor(
        in: frame)
      do {
        calls.append(
          try DrawCall(
            mesh: mesh, worldFromModel: Matrix4<Float>(pose.matrix), cullBackFaces: false,
            textures: [texture: image]))
      } catch { throw .badMarker(point: point.name, reason: "\(error)") }
    }
    return calls
  }
}

/// Why a control point's marker cannot be drawn or looked for.
public enum ControlMarkerCardError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The point's marker names a dictionary ARScene does not know.
  case unknownDictionary(point: String, dictionary: String)
  /// The point's marker cannot be drawn (its id or size), and why.
  case badMarker(point: String, reason: String)

  public var description: String {
    switch self {
    case .unknownDictionary(let point, let dictionary):
      "control point '\(point)': no marker dictionary '\(dictionary)' (\(MarkerDictionary.all.map(\.name).joined(separator: ", ")))"
    case .badMarker(let point, let reason): "control point '\(point)': \(reason)"
    }
  }
}

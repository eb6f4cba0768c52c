import ARFiles
import ARMath
import ARPose
import Foundation

/// A rig file as `arscene marker detect --rig` reads it: the markers an object carries (a card
/// with one on each side, a board), `{"markers": [{"id", "size", "translation", "rotation_xyzw"}]}`
/// with each marker's side in metres and its pose on the object (`object_from_marker`, metres;
/// the marker's frame as ARPose's `SquareMarker.corners(size:)` gives it: x right, y up, z out
/// of the marker).
public struct MarkerRigFile: Decodable, Sendable {
  /// One marker on the object.
  public struct Marker: Decodable, Sendable {
    /// Its id in the dictionary.
    public var id: Int
    /// Its side, metres (the black square's).
    public var size: Double
    /// Where its centre is on the object, `[x, y, z]` metres; the origin when absent.
    public var translation: [Double]?
    /// Its orientation on the object, a unit quaternion `[x, y, z, w]`; none when absent.
    public var rotationXYZW: [Double]?

    enum CodingKeys: String, CodingKey {
      case id, size, translation
      case rotationXYZW = "rotation_xyzw"
    }
  }

  /// The object's markers.
  public var markers: [Marker]

  /// The rig a file describes, checked: ids in `dictionary` and all different (the same-marker
  /// check: two markers printed with one image cannot be told apart, so which side of a card
  /// is seen would be a guess), sizes positive, rotations unit quaternions.
  /// - Throws: ``MarkerRigError`` naming the file and the field.
  public static func read(_ path: String, dictionary: MarkerDictionary) throws(MarkerRigError) -> MarkerRig {
    let file: MarkerRigFile
    do {
      file = try JSONDecoder().decode(MarkerRigFile.self, from: Data(FileIO.read(path)))
    } catch let error as DecodingError {
      throw MarkerRigError(path: path, field: error.fieldPath, reason: "\(error.reason)")
    } catch {
      throw MarkerRigError(path: path, field: nil, reason: "cannot read: \(error.localizedDescription)")
    }
    guard !file.markers.isEmpty else {
      throw MarkerRigError(path: path, field: "markers", reason: "no marker")
    }
    var markers: [MarkerRig.Marker] = []
    for (k, m) in file.markers.enumerated() {
      let field = "markers[\(k)]"
      guard (0..<dictionary.codes.count).contains(m.id) else {
        throw MarkerRigError(
          path: path, field: field + ".id",
          reason: "\(dictionary.name) has ids 0 to \(dictionary.codes.count - 1), not \(m.id)")
      }
      if let first = file.markers.firstIndex(where: { $0.id == m.id }), first < k {
        throw MarkerRigError(
          path: path, field: field + ".id",
          reason:
            "\(m.id) is also markers[\(first)]'s: a rig's markers must differ, or a detection cannot tell which one it saw"
        )
      }
      guard m.size > 0, m.size.isFinite else {
        throw MarkerRigError(
          path: path, field: field + ".size", reason: "must be a positive number of metres")
      }
      let t = m.translation ?? [0, 0, 0], q = m.rotationXYZW ?? [0, 0, 0, 1]
      guard t.count == 3, t.allSatisfy(\.isFinite) else {
        throw MarkerRigError(path: path, field: field + ".translation", reason: "expected 3 finite numbers")
      }
      let norm = q.map { $0 * $0 }.reduce(0, +).squareRoot()
      guard q.count == 4, q.allSatisfy(\.isFinite), abs(norm - 1) < 1e-3 else {
        throw MarkerRigError(
          path: path, field: field + ".rotation_xyzw", reason: "expected a unit quaternion x, y, z, w")
      }
      markers.append(
        MarkerRig.Marker(
          id: m.id, size: m.size,
          objectFromMarker: RigidTransform(
            rotation: Quaternion(vector: SIMD4(q[0], q[1], q[2], q[3]) / norm),
            translation: SIMD3(t[0], t[1], t[2]))))
    }
    do { return try MarkerRig(markers: markers) } catch {
      throw MarkerRigError(path: path, field: "markers", reason: "\(error)")
    }
  }
}

extension DecodingError {
  /// The JSON path of the value at fault, as `markers[1].size`.
  fileprivate var fieldPath: String? {
    let path: [any CodingKey]
    switch self {
    case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c): path = c.codingPath
    case .keyNotFound(let key, let c): path = c.codingPath + [key]
    @unknown default: return nil
    }
    guard !path.isEmpty else { return nil }
    return path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
      .trimmingCharacters(in: CharacterSet(charactersIn: "."))
  }

  fileprivate var reason: String {
    switch self {
    case .typeMismatch(let type, _): "expected \(type)"
    case .valueNotFound(let type, _): "expected \(type), found null"
    case .keyNotFound: "missing"
    case .dataCorrupted(let c): c.debugDescription
    @unknown default: "\(self)"
    }
  }
}

import ARMath

/// An OBJ file as written, before triangulation: the `v`/`vt`/`vn` arrays, faces as lists of
/// corners, lines, points and the names in force. Built by ``OBJReader``; turned into a
/// renderable ``Mesh`` by `Mesh(obj:materials:)`.
///
/// Coordinates are in the file's units (ARScene treats them as metres). Positions are kept as
/// `Float` offsets from a `Double` ``origin``, so that a model in projected coordinates (UTM
/// eastings near 500 km, northings near 5,500 km, S-JTSK near −1,000 km) or ECEF keeps
/// millimetres where `Float` alone would keep half metres.
public struct OBJModel: Sendable {
  /// The most corners a face may have: 4,096, far beyond the n-gons exporters write (a
  /// cylinder's cap of a few hundred), small enough that triangulating one is quick. A larger
  /// face is an error naming its line (a 50-million-corner face would otherwise take minutes and
  /// gigabytes).
  public static let maximumFaceCorners = 4096

  /// `v` positions: offsets from ``origin``, which is zero unless the first vertex lies
  /// ``originDistance`` or more from the file's origin.
  public var positions: [SIMD3<Float>] = []
  /// Where ``positions`` are measured from, in the file's coordinates: the first vertex rounded
  /// to whole units when it is far from the origin, else zero (positions as written).
  public var origin: SIMD3<Double> = .zero
  /// The bounds of the `v` positions in the file's coordinates, as written (`Double`); empty
  /// for a file without vertices.
  public var bounds = AxisAlignedBox<Double>.empty
  /// How far from the file's origin (any coordinate, in its units) the first vertex must lie
  /// for positions to be kept relative to it: beyond 1,024 m, `Float` spacing exceeds 0.1 mm.
  public static let originDistance = 1024.0
  /// `v` colours (`v x y z r g b`), one per position, or empty when no vertex has one. Positions
  /// written without a colour in a file that has some get white.
  public var colors: [SIMD3<Float>] = []
  /// `vt` texture coordinates `(u, v, w)`; missing components are 0.
  public var texcoords: [SIMD3<Float>] = []
  /// `vn` normals as written (not normalised).
  public var normals: [SIMD3<Float>] = []
  /// The corners of all faces, face after face.
  public var corners: [OBJCorner] = []
  /// Face `i` has corners `corners[faceStarts[i] ..< faceStarts[i + 1]]`; one more entry than faces.
  public var faceStarts: [Int] = [0]
  /// The object, group, material and smoothing state of the faces, in runs.
  public var faceRuns: [OBJFaceRun] = []
  /// `l` polylines, each a list of corners (position and optional texture coordinate).
  public var lines: [[OBJCorner]] = []
  /// `p` points.
  public var points: [OBJCorner] = []
  /// `o` names in order of first appearance.
  public var objectNames: [String] = []
  /// `g` names in order of first appearance (`g a b` is one group named `a b`).
  public var groupNames: [String] = []
  /// `usemtl` names in order of first use.
  public var materialNames: [String] = []
  /// The line of each `usemtl` name's first use, parallel to ``materialNames``.
  public var materialNameLines: [Int] = []
  /// `mtllib` arguments as written, in order.
  public var materialLibraries: [String] = []
  /// The line of each `mtllib`, parallel to ``materialLibraries``.
  public var materialLibraryLines: [Int] = []
  /// Statements that were read but have no effect here (free-form geometry, display
  /// attributes), with where they were: nothing is skipped silently.
  public var warnings: [OBJWarning] = []

  /// An empty model.
  public init() {}

  /// Number of faces.
  public var faceCount: Int { faceStarts.count - 1 }

  /// Number of triangles after triangulation: a face of `n` corners becomes `n − 2`.
  public var triangleCount: Int { corners.count - 2 * faceCount }

  /// The corners of face `index`.
  public func face(_ index: Int) -> ArraySlice<OBJCorner> {
    corners[faceStarts[index]..<faceStarts[index + 1]]
  }

  /// The run in force at face `index` (binary search).
  public func run(ofFace index: Int) -> OBJFaceRun? {
    var lo = 0, hi = faceRuns.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if faceRuns[mid].firstFace <= index { lo = mid + 1 } else { hi = mid }
    }
    return lo == 0 ? nil : faceRuns[lo - 1]
  }
}

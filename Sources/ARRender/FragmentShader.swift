import ARMath
import RealModule

/// Colours the fragments of a triangle. The rasterizer is generic over it, so each shader's
/// inner loop is compiled on its own.
///
/// Samples that pass the depth test are gathered into batches and shaded together
/// (``shade(_:_:count:)``), so that each step is a short loop whose samples do not wait on one
/// another; flat colours skip the batches.
protocol FragmentShader: Sendable {
  /// What the shader computes once per triangle.
  associatedtype TriangleState
  /// Whether `begin` reads the triangle's vertices (the rasterizer then fetches them early).
  var readsVertices: Bool { get }
  /// What `shade` needs of triangle `t`, whose vertices are in `vertices`, with `q` over it
  /// given by `planes` (origin: the triangle's first sample in the tile).
  func begin(_ t: SetupTriangle, _ vertices: FrameVertices, _ planes: PerspectivePlanes) -> TriangleState
  /// Whether `shade` gives every sample of triangle `t` alpha 1: the rasterizer then tests
  /// depth four samples at a time and writes the colours without blending, and (see
  /// ``defersShading``) shades only its samples left visible. (False is always correct, and is
  /// the path tests compare against.)
  func isOpaque(_ t: SetupTriangle) -> Bool
  /// Whether the rasterizer first finds which opaque triangle is in front at each sample of a
  /// tile and then shades each sample once (see ``Renderer/markVisible(_:id:in:ties:)``), rather
  /// than shading every sample in front when drawn. Worth it when shading costs more than
  /// finding coverage and depth again: not for flat colours.
  var defersShading: Bool { get }
  /// Fills `batch.color` for the batch's first `count` samples (computing their weights when
  /// it needs them): straight alpha (below 1: blended "over" what is there by the
  /// rasterizer; below 0.999 also no depth write), or ``FragmentBatch/discarded``.
  ///
  /// Batch by batch, each step a short loop over the samples: decisions that hold for the whole
  /// triangle (texture or not, alpha mode, lights) are taken once, outside the loops.
  func shade(_ state: TriangleState, _ batch: FragmentBatch, count: Int)
  /// The one opaque colour of every fragment of the triangle, when it has one (flat shading):
  /// the rasterizer then fills without calling `shade`.
  func flatColor(_ state: TriangleState) -> SIMD4<Float>?
}

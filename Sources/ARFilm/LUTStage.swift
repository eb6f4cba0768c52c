import ARFiles
import ARImage
import ARMath
import CVectorKernels
import Foundation

/// A 3D or 1D `.cube` LUT inside a look, applied to the display-encoded values as grading tools
/// do (and back to linear light after). Parameters: `file` (a path, relative to the preset
/// file's folder, which it may not leave: see `FileReferences`), `interpolation` (`trilinear` or `tetrahedral`, default trilinear) and
/// `strength` (0…1, the mix with the image; 0 changes nothing).
public struct LUTStage: FilmStage {
  /// The stage's key in a preset file: `lut`.
  public static let key = "lut"
  /// The table, how it is interpolated between entries, and its mix with the image (0…1).
  public let lut: CubeLUT, interpolation: CubeLUT.Interpolation, strength: Float

  /// The stage from a preset's parameters, each checked against the range above.
  public init(_ p: FilmParameters) throws(FilmError) {
    try p.only(["file", "interpolation", "strength"])
    guard let file = try p.string("file") else { throw p.fail("file", "missing") }
    let path: String
    do { path = try FileReferences.resolve(file, in: p.path) } catch {
      throw p.fail("file", error.explanation)
    }
    lut = try CubeLUT(path: path)
    interpolation = CubeLUT.Interpolation(
      rawValue: try p.choice("interpolation", ["trilinear", "tetrahedral"], default: "trilinear"))!
    strength = Float(try p.number("strength", in: 0...1, default: 1))
  }

  /// A stage applying `lut` with `interpolation`, mixed with the image at `strength` (0…1).
  public init(lut: CubeLUT, interpolation: CubeLUT.Interpolation = .trilinear, strength: Float = 1) {
    self.lut = lut
    self.interpolation = interpolation
    self.strength = strength
  }

  /// The stage made ready for an image of this size; nil when it changes nothing.
  public func step(width: Int, height: Int, context: FilmContext) -> FilmStep? {
    guard strength > 0, !lut.isIdentity else { return nil }
    let encode = ChannelTable { Encoding.encode($0) }
    let (lut, interpolation, strength) = (self.lut, self.interpolation, self.strength)
    return colourStep { c in
      let e = SIMD3(encode(c.x), encode(c.y), encode(c.z))
      var out = lut.apply(e, interpolation: interpolation)
      if strength < 1 { out = e + (out - e) * strength }
      return SIMD3(Encoding.decodeFast(out.x), Encoding.decodeFast(out.y), Encoding.decodeFast(out.z))
    }
  }
}

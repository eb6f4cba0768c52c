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
  public static let key = "lut"
  public let lut: CubeLUT, interpolation: CubeLUT.Interpolation, strength: Float

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

  public init(lut: CubeLUT, interpolation: CubeLUT.Interpolation = .trilinear, strength: Float = 1) {
    self.lut = lut
    self.interpolation = interpolation
    self.strength = strength
  }

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

import ARImage
import ARMesh

extension TextureView {
  /// Every level's texels without the border, in linear light (the stored fixed point scaled
  /// back), rows top to bottom.
  var linearLevels: [LinearImage] {
    levels.map { level in
      var pixels: [SIMD4<Float>] = []
      pixels.reserveCapacity(level.width * level.height)
      for y in 0..<level.height {
        // Texel (0, y) sits one row and one column into the bordered level.
        let row = Int(level.base) + (y + 1) * Int(level.stride) + 1
        for x in 0..<level.width { pixels.append(SIMD4<Float>(entries[row + x]) / MipmappedTexture.unit) }
      }
      return LinearImage(width: level.width, height: level.height, pixels: pixels)
    }
  }
}

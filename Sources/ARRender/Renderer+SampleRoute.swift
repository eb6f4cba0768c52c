extension Renderer {
  /// Where a frame's samples go: straight into the output image (8-bit, one sample a pixel,
  /// nothing blends), or into each worker's tile of linear colour, resolved into the output
  /// when the tile is done.
  enum SampleRoute {
    case direct(EncodedSamples)
    case resolved(into: EncodedSamples)
  }
}

import ARImage

/// Basis Universal's ETC1S images (KTX2's BasisLZ supercompression): codebooks of endpoints (a
/// 5-bit colour and an intensity table) and selectors (2 bits a pixel of a 4×4 block), shared
/// by every image of the file, then each image's blocks as Huffman-coded indices into them,
/// predicted from the blocks to the left and above; each block decodes as an ETC1 block of one
/// colour and one intensity table.
struct BasisETC1S {
  struct Endpoint {
    var color5: SIMD3<Int32>
    var intensity: Int
  }

  /// Each selector's four rows, one byte a row, two bits a pixel (the first pixel lowest).
  var selectors: [SIMD4<UInt8>]
  var endpoints: [Endpoint]
  var endpointPrediction, endpointDelta, selectorModel, selectorHistoryRuns: BasisHuffmanTable
  var selectorHistorySize: Int

  /// ETC1's intensity modifiers, each table's four in increasing order (Basis's selector order).
  static let intensities: [SIMD4<Int32>] = [
    [-8, -2, 2, 8], [-17, -5, 5, 17], [-29, -9, 9, 29], [-42, -13, 13, 42], [-60, -18, 18, 60],
    [-80, -24, 24, 80], [-106, -33, 33, 106], [-183, -47, 47, 183],
  ]

  /// The codebooks and tables of a file's global data: `endpointCount` endpoints and
  /// `selectorCount` selectors from their sections, and the slices' Huffman tables.
  init(
    endpointCount: Int, endpointBytes: ArraySlice<UInt8>, selectorCount: Int,
    selectorBytes: ArraySlice<UInt8>,
    tableBytes: ArraySlice<UInt8>
  ) throws(BasisError) {
    guard endpointCount > 0, selectorCount > 0 else { throw BasisError("no endpoints or no selectors") }
    endpoints = try Self.endpoints(endpointCount, endpointBytes)
    selectors = try Self.selectors(selectorCount, selectorBytes)
    var r = BasisBitReader(tableBytes)
    endpointPrediction = try r.huffmanTable()
    endpointDelta = try r.huffmanTable()
    selectorModel = try r.huffmanTable()
    selectorHistoryRuns = try r.huffmanTable()
    selectorHistorySize = Int(r.bits(13))
    guard
      [endpointPrediction, endpointDelta, selectorModel, selectorHistoryRuns].allSatisfy({ $0.used > 0 }),
      selectorHistorySize > 0, !r.overran
    else { throw BasisError("the slice tables are incomplete") }
  }

  /// The endpoint codebook: intensities and colours as deltas from the previous endpoint's, each
  /// colour component's delta coded by one of three tables chosen by the previous value.
  private static func endpoints(_ count: Int, _ bytes: ArraySlice<UInt8>) throws(BasisError) -> [Endpoint] {
    var r = BasisBitReader(bytes)
    let colorModels = [try r.huffmanTable(), try r.huffmanTable(), try r.huffmanTable()]
    let intensityModel = try r.huffmanTable()
    guard colorModels.allSatisfy({ $0.used > 0 }), intensityModel.used > 0 else {
      throw BasisError("the endpoint codebook's tables are incomplete")
    }
    let grey = r.bits(1) != 0
    var out: [Endpoint] = []
    out.reserveCapacity(count)
    var previous = SIMD3<Int32>(16, 16, 16), previousIntensity = 0
    for _ in 0..<count {
      let intensity = (try r.symbol(intensityModel) + previousIntensity) & 7
      previousIntensity = intensity
      var color = previous
      for c in 0..<(grey ? 1 : 3) {
        let model = previous[c] <= 9 ? colorModels[0] : previous[c] <= 21 ? colorModels[1] : colorModels[2]
        color[c] = (previous[c] + Int32(try r.symbol(model))) & 31
      }
      if grey { color = SIMD3(repeating: color[0]) }
      previous = color
      out.append(Endpoint(color5: color, intensity: intensity))
    }
    guard !r.overran else { throw BasisError("the endpoint codebook is truncated") }
    return out
  }

  /// The selector codebook: raw bytes, or the first raw and each next one's bytes XORed with the
  /// previous one's, Huffman-coded. Global codebooks (older `.basis` files) are refused.
  private static func selectors(_ count: Int, _ bytes: ArraySlice<UInt8>) throws(BasisError) -> [SIMD4<UInt8>]
  {
    var r = BasisBitReader(bytes)
    guard r.bits(1) == 0, r.bits(1) == 0 else { throw BasisError("a global selector codebook (not read)") }
    var out: [SIMD4<UInt8>] = []
    out.reserveCapacity(count)
    if r.bits(1) == 1 {
      for _ in 0..<count {
        out.append(SIMD4(UInt8(r.bits(8)), UInt8(r.bits(8)), UInt8(r.bits(8)), UInt8(r.bits(8))))
      }
    } else {
      let model = try r.huffmanTable()
      guard count == 1 || model.used > 0 else { throw BasisError("the selector codebook's table is empty") }
      var previous = SIMD4<UInt8>(UInt8(r.bits(8)), UInt8(r.bits(8)), UInt8(r.bits(8)), UInt8(r.bits(8)))
      out.append(previous)
      for _ in 1..<max(1, count) {
        for j in 0..<4 { previous[j] ^= UInt8(truncatingIfNeeded: try r.symbol(model)) }
        out.append(previous)
      }
    }
    guard !r.overran else { throw BasisError("the selector codebook is truncated") }
    return out
  }

  /// Decodes a slice of `blocksX × blocksY` blocks into `image` (its top-left `width × height`
  /// pixels): colour into red, green and blue, or with `alpha`, the green channel into alpha
  /// (an ETC1S alpha slice).
  func decodeSlice(
    _ bytes: ArraySlice<UInt8>, blocksX: Int, blocksY: Int, into image: inout RGBA8Image, alpha: Bool
  ) throws(BasisError) {
    var r = BasisBitReader(bytes)
    var history = MoveToFront(count: selectorHistorySize)
    let firstHistorySymbol = selectors.count, runSymbol = selectorHistorySize + selectors.count
    // The endpoint indices and prediction bits of the previous and this row of blocks.
    var rowEndpoints = [[Int]](repeating: [Int](repeating: 0, count: blocksX), count: 2)
    var rowPredictions = [[UInt32]](repeating: [UInt32](repeating: 0, count: blocksX), count: 2)
    var predictionBits: UInt32 = 0, previousPrediction: UInt32 = 0, predictionRepeats = 0
    var previousEndpoint = 0, selectorRun = 0
    for by in 0..<blocksY {
      let row = by & 1
      for bx in 0..<blocksX {
        // A symbol of prediction bits serves a 2×2 group of blocks, read at its top-left.
        if bx & 1 == 0 {
          if by & 1 == 0 {
            if predictionRepeats > 0 {
              predictionRepeats -= 1
              predictionBits = previousPrediction
            } else {
              predictionBits = UInt32(try r.symbol(endpointPrediction))
              if predictionBits == 256 {  // repeat the last symbol
                predictionRepeats = Int(r.vlc(4)) + 3 - 1
                predictionBits = previousPrediction
              } else {
                previousPrediction = predictionBits
              }
            }
            rowPredictions[row ^ 1][bx] = predictionBits >> 4
          } else {
            predictionBits = rowPredictions[row][bx]
          }
        }
        let endpoint: Int
        switch predictionBits & 3 {
        case 0:  // the block to the left's
          guard bx > 0 else { throw BasisError("a block predicted from the left at the left edge") }
          endpoint = previousEndpoint
        case 1:  // the block above's
          guard by > 0 else { throw BasisError("a block predicted from above at the top edge") }
          endpoint = rowEndpoints[row ^ 1][bx]
        case 2:  // the block above and to the left's
          guard bx > 0, by > 0 else { throw BasisError("a block predicted from the upper left at an edge") }
          endpoint = rowEndpoints[row ^ 1][bx - 1]
        default:
          let delta = try r.symbol(endpointDelta) + previousEndpoint
          endpoint = delta >= endpoints.count ? delta - endpoints.count : delta
        }
        predictionBits >>= 2
        rowEndpoints[row][bx] = endpoint
        previousEndpoint = endpoint
        let selector = try nextSelector(
          &r, &history, &selectorRun, firstHistorySymbol, runSymbol, blocksX * blocksY)
        guard endpoint >= 0, endpoint < endpoints.count, selector < selectors.count else {
          throw BasisError("a block names an endpoint or selector past the codebook")
        }
        write(endpoints[endpoint], selectors[selector], x: bx * 4, y: by * 4, into: &image, alpha: alpha)
      }
    }
    guard !r.overran else { throw BasisError("the slice is truncated") }
  }

  /// The next block's selector index: a codebook index (remembered in the history), one from the
  /// history, or a run repeating the history's first.
  private func nextSelector(
    _ r: inout BasisBitReader, _ history: inout MoveToFront, _ run: inout Int, _ firstHistorySymbol: Int,
    _ runSymbol: Int, _ blocks: Int
  ) throws(BasisError) -> Int {
    var symbol: Int
    if run > 0 {
      run -= 1
      symbol = firstHistorySymbol
    } else {
      symbol = try r.symbol(selectorModel)
      if symbol == runSymbol {
        let runCode = try r.symbol(selectorHistoryRuns)
        run = runCode == 63 ? Int(r.vlc(7)) + 3 : runCode + 3
        guard run <= blocks else { throw BasisError("a selector run longer than the image") }
        symbol = firstHistorySymbol
        run -= 1
      }
    }
    guard symbol >= firstHistorySymbol else {
      history.add(symbol)
      return symbol
    }
    let index = symbol - firstHistorySymbol
    guard index < history.values.count else { throw BasisError("a selector history index past its size") }
    let selector = history.values[index]
    if index != 0 { history.use(index) }
    return selector
  }

  /// One block's pixels: the endpoint's colour (5 bits widened to 8) plus its intensity table's
  /// modifier each pixel's selector picks, clamped; only the pixels inside the image.
  private func write(
    _ endpoint: Endpoint, _ selector: SIMD4<UInt8>, x: Int, y: Int, into image: inout RGBA8Image, alpha: Bool
  ) {
    let base = (endpoint.color5 &<< 3) | (endpoint.color5 &>> 2)
    let modifiers = Self.intensities[endpoint.intensity]
    let width = image.width
    for row in 0..<min(4, image.height - y) {
      let bits = selector[row]
      for column in 0..<min(4, width - x) {
        let m = modifiers[Int(bits >> UInt8(2 * column)) & 3]
        let c = pointwiseMin(pointwiseMax(base &+ SIMD3(repeating: m), .zero), SIMD3(repeating: 255))
        let i = (y + row) * width + x + column
        if alpha {
          image.pixels[i].w = UInt8(c.y)
        } else {
          image.pixels[i] = SIMD4(UInt8(c.x), UInt8(c.y), UInt8(c.z), 255)
        }
      }
    }
  }
}

/// Basis's approximate move-to-front list of recent selector indices: new ones written round a
/// rover in its second half, a used one swapped halfway to the front.
private struct MoveToFront {
  var values: [Int]
  private var rover: Int

  init(count: Int) {
    values = [Int](repeating: 0, count: count)
    rover = count / 2
  }

  mutating func add(_ value: Int) {
    values[rover] = value
    rover += 1
    if rover == values.count { rover = values.count / 2 }
  }

  mutating func use(_ index: Int) {
    values.swapAt(index / 2, index)
  }
}

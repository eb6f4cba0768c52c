import ARFilm
import ARImage
import ARMath
import Foundation
import VipsOracle

/// Film looks on a 12-megapixel photo (4032×3024, an iPhone's), on 2 threads: a full preset
/// against the goal, and the operations libvips has too, side by side with libvips 8
/// (Debian libvips-dev, linked in process, 2 threads, its cache off), each from an 8-bit image
/// in memory to an 8-bit image in memory. Ours works in linear light, so its rows include
/// decoding and encoding sRGB, which libvips, working on the encoded values, does not.
/// A photo-like image: smooth gradients with seeded texture.
func syntheticPhoto(width: Int, height: Int, seed: UInt64) -> RGBA8Image {
  var random = SplitMix64(seed: seed)
  return RGBA8Image(
    width: width, height: height,
    pixels: (0..<(width * height)).map { i in
      let (x, y) = (i % width, i / width)
      let t = UInt8(truncatingIfNeeded: Int.random(in: 0...24, using: &random))
      return SIMD4(
        UInt8(40 + 180 * x / width) &+ t, UInt8(30 + 200 * y / height) &+ t,
        UInt8(160 - 120 * x / width) &+ t, 255)
    })
}

func filmWorkloads(quick: Bool) -> [Row] {
  let (width, height) = quick ? (1008, 756) : (4032, 3024)
  let photo = syntheticPhoto(width: width, height: height, seed: 35)
  let rgb = photo.pixels.flatMap { [$0.x, $0.y, $0.z] }
  let rounds = quick ? 1 : 5
  let environment = ProcessInfo.processInfo.environment
  let context = FilmContext(seed: 1, threads: 2)
  var rows: [Row] = []
  func time(_ body: () -> Void) -> Double { (0..<rounds).map { _ in seconds(body) }.min()! }

  // ARSCENE_BENCH_FILM_PRESETS: other presets (names or files, comma-separated), to profile.
  let presets = environment["ARSCENE_BENCH_FILM_PRESETS"]?.split(separator: ",").map(String.init)
  for name in presets ?? ["warm-gold-200", "classic-bw-400"] {
    let look = try! FilmLook(named: name)
    // ARSCENE_BENCH_TRACE: what each stage adds to the look's time (the look up to it against
    // the look up to the one before), to stderr.
    if environment["ARSCENE_BENCH_TRACE"] != nil {
      var before = 0.0
      for k in 1...look.stages.count {
        let prefix = FilmLook(name: name, stages: Array(look.stages[..<k]))
        let t = time { blackHole(prefix.apply(to: photo, context: context)) }
        let key = type(of: look.stages[k - 1]).key
        FileHandle.standardError.write(Data("\(name) + \(key): \(Int((t - before) * 1000)) ms\n".utf8))
        before = t
      }
    }
    let ours = time { blackHole(look.apply(to: photo, context: context)) }
    rows.append(
      Row(
        workload: "film preset \(name) on a \(width)×\(height) photo, 2 threads", ours_s: ours,
        peer: "the 250 ms goal", peer_s: 0.25, ratio: ours / 0.25))
  }
  guard environment["ARSCENE_BENCH_OURS_ONLY"] == nil, vips_oracle_start(2) == 0 else { return rows }
  let matrix: [Double] = [0.92, 0.06, 0.02, 0.04, 0.92, 0.04, 0.02, 0.08, 0.9]
  let shared: [(String, Int32, Double, () -> Void)] = [
    (
      "3×3 colour matrix", 0, 0,
      {
        let stage = ColourMatrix(rows: matrix.map(Float.init))
        blackHole(FilmLook(name: "matrix", stages: [stage]).apply(to: photo, context: context))
      }
    ),
    (
      "Gaussian blur, σ 3 px cut at 3σ (ours: the soften stage at full strength, in linear light)", 1, 3,
      { blackHole(FilmLook(name: "blur", stages: [Soften(sigma: 3)]).apply(to: photo, context: context)) }
    ),
    (
      "noise added (ours: ISO 400 film grain; libvips: Gaussian σ 5 levels)", 2, 5,
      {
        let grain = try! FilmGrain(FilmParameters(["iso": 400], field: "grain"))
        blackHole(FilmLook(name: "grain", stages: [grain]).apply(to: photo, context: context))
      }
    ),
  ]
  for (label, operation, sigma, body) in shared {
    let ours = time(body)
    let peer = rgb.withUnsafeBufferPointer { b in
      matrix.withUnsafeBufferPointer { m in
        vips_oracle_time(
          operation, b.baseAddress, Int32(width), Int32(height), m.baseAddress, sigma, Int32(rounds))
      }
    }
    guard peer > 0 else { continue }
    rows.append(
      Row(
        workload: "\(label), \(width)×\(height), 8-bit in and out", ours_s: ours,
        peer: "libvips 8 (2 threads)",
        peer_s: peer, ratio: ours / peer))
  }
  return rows
}

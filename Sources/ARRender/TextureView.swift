import ARImage
import ARMath
import ARMesh

/// Samples a ``MipmappedTexture`` (see there) without reference counting.
struct TextureView {
  let entries: UnsafePointer<SIMD4<Int16>>
  let levels: UnsafeBufferPointer<MipmappedTexture.Level>
  let clamp: Bool
  let scale: SIMD2<Float>, offset: SIMD2<Float>
  /// Whether the texture repeats and its sides are powers of two, so that each level can wrap
  /// coordinates in integers (its ``MipmappedTexture/Level/wrap``).
  let wrapsByMask: Bool

  /// Whether coordinates within the triangle of vertex coordinates `us`, `vs` can be
  /// wrapped in integers (see ``sample(u:v:level:count:inIntegers:scratch:tint:into:)``): the texture
  /// repeats with sides of powers of two, and the coordinates are small enough (perspective
  /// interpolation keeps them within the vertices' range) for positions in whole units.
  func wrapsInIntegers(us: SIMD3<Float>, vs: SIMD3<Float>) -> Bool {
    guard wrapsByMask else { return false }
    let wrap = levels[0].wrap
    // Written as comparisons that NaN fails.
    return (0..<3).allSatisfy {
      abs(us[$0] * wrap.perUV.x) < IntegerWrap.limit && abs(vs[$0] * wrap.perUV.y) < IntegerWrap.limit
    }
  }

  /// The base level's size in texels times the coordinate scale: texels per unit of uv.
  @inline(__always) var texelsPerUV: SIMD2<Float> { levels[0].size * scale }

  /// Samples `count` texture coordinates `(u[k], v[k])` at mip levels `level[k]` (fractional;
  /// 0 or below, or NaN, is the base level), or all at the base level when `level` is nil,
  /// into `out`, four at a time.
  ///
  /// In two passes: where every group of four reads (entries and weights, into `scratch`),
  /// then the reads and the filter. Sampling four at a time in one pass is a chain of some
  /// 100 cycles of latency (the reciprocal, the rounding, the index, the loads), longer than
  /// what the processor can look ahead, so it waited on every group; each pass alone is short,
  /// and its groups overlap.
  ///
  /// `inIntegers` (when ``wrapsInIntegers(us:vs:)`` holds for the coordinates) wraps them as
  /// ``IntegerWrap`` says, on every level; the positions are the same where the floating-point
  /// wrap is exact, and within its rounding elsewhere.
  ///
  /// Each colour is written through `tint` (nothing changes with ``TexelTint/none``).
  ///
  /// Every array must have room for `count` rounded up to a multiple of 4 (the last group reads
  /// and writes whole), `scratch` for ``scratchGroups`` per group. Any input is safe:
  /// coordinates that are not finite sample as 0 (in integers, as some texel).
  @inline(never)
  func sample(
    u: UnsafePointer<Float>, v: UnsafePointer<Float>, level: UnsafePointer<Float>?, count: Int,
    inIntegers: Bool = false, scratch: UnsafeMutablePointer<SIMD4<Int32>>, tint: TexelTint = .none,
    into out: UnsafeMutablePointer<SIMD4<Float>>
  ) {
    @inline(__always) func four(_ p: UnsafePointer<Float>, _ k: Int) -> SIMD4<Float> {
      UnsafeRawPointer(p + k).loadUnaligned(as: SIMD4<Float>.self)
    }
    @inline(__always) func store(_ taps: Taps, _ group: UnsafeMutablePointer<SIMD4<Int32>>) {
      (group[0], group[1], group[2], group[3]) = (taps.top, taps.bottom, taps.leftWeights, taps.rightWeights)
    }
    @inline(__always) func load(_ group: UnsafeMutablePointer<SIMD4<Int32>>) -> Taps {
      Taps(top: group[0], bottom: group[1], leftWeights: group[2], rightWeights: group[3])
    }
    let inIntegers = inIntegers && wrapsByMask
    var blends = false
    var k = 0
    if let level {
      while k < count {
        let taps = levelTaps(
          coordinates(four(u, k), four(v, k), inIntegers: inIntegers), level: four(level, k))
        let group = scratch + 2 * k
        store(taps.first, group)
        // Where this group does not blend, a second level of weight 0 adds nothing.
        store(taps.blends ? taps.second : taps.first.weighingNothing, group + 4)
        blends = blends || taps.blends
        k &+= 4
      }
    } else {
      // Read once, here: read in the loop, it was read again for every group (the compiler
      // cannot tell that the stores to `scratch` leave it alone).
      let base = levels[0]
      while k < count {
        let c = coordinates(four(u, k), four(v, k), inIntegers: inIntegers)
        store(taps(c, levels: (base, base, base, base), uniform: true, share: nil), scratch + 2 * k)
        k &+= 4
      }
    }
    k = 0
    if blends {
      while k < count {
        let group = scratch + 2 * k
        tint.write(filtered(load(group), load(group + 4), blends: true), to: out + k)
        k &+= 4
      }
    } else if tint.keepsColorOpaque {
      // Its own loop: with the tint's branch inside, the loop's control took more than the
      // tint saves.
      while k < count {
        let first = load(scratch + 2 * k)
        TexelTint.writeOpaque(filtered(first, first, blends: false), to: out + k)
        k &+= 4
      }
    } else {
      while k < count {
        let first = load(scratch + 2 * k)
        tint.write(filtered(first, first, blends: false), to: out + k)
        k &+= 4
      }
    }
  }

  /// The scratch a group of four samples takes in ``sample(u:v:level:count:inIntegers:scratch:tint:into:)``:
  /// two levels' taps.
  static let scratchGroups = 8

  /// The trilinearly filtered colour at `uv` for mip level `level`, as the batch sampler above
  /// computes it.
  func sample(_ uv: SIMD2<Float>, level: Float) -> SIMD4<Float> {
    sampleFour(u: SIMD4(repeating: uv.x), v: SIMD4(repeating: uv.y), level: SIMD4(repeating: level)).0
  }

  /// The trilinearly filtered colour at `uv`, for a sample whose coordinates change by `dx`
  /// per sample to the right and `dy` per sample down (the footprint's sides, in uv units).
  func sample(_ uv: SIMD2<Float>, _ dx: SIMD2<Float>, _ dy: SIMD2<Float>) -> SIMD4<Float> {
    let sx = dx * texelsPerUV, sy = dy * texelsPerUV
    let footprint = Swift.max((sx * sx).sum(), (sy * sy).sum())
    return sample(uv, level: mipLevel(footprint: SIMD4(repeating: footprint)).x)
  }

  /// Where four samples read one level: each lane's index of the top-left texel of its 2×2
  /// and of the one below it, and the weights of its left and right columns as
  /// `(top, bottom)` pairs, packed for ``LaneMath/multiplyAddPairs(_:_:)``.
  private struct Taps {
    let top: SIMD4<Int32>, bottom: SIMD4<Int32>
    let leftWeights: SIMD4<Int32>, rightWeights: SIMD4<Int32>

    /// The same texels with weights 0.
    var weighingNothing: Taps { Taps(top: top, bottom: bottom, leftWeights: .zero, rightWeights: .zero) }
  }

  /// Four samples' coordinates, as the sampler wraps them: `(s, t)` in [0, 1] (t down) for
  /// the floating-point wrap, or the raw `(u, v)` when wrapped in integers.
  private struct Coordinates {
    let x: SIMD4<Float>, y: SIMD4<Float>
    let inIntegers: Bool
  }

  /// Four coordinates `(u, v)` ready for ``taps(_:level:uniform:share:)``: kept raw when
  /// `inIntegers` (each level wraps them itself), else wrapped in floating point.
  @inline(__always)
  private func coordinates(_ u: SIMD4<Float>, _ v: SIMD4<Float>, inIntegers: Bool) -> Coordinates {
    if inIntegers { return Coordinates(x: u, y: v, inIntegers: true) }
    let (s, t) = wrapped(u, v)
    return Coordinates(x: s, y: t, inIntegers: false)
  }

  /// The taps of level `index` (per lane) for `coordinates`, the level's share of the
  /// trilinear blend being `share / 512` (in 1/256ths, times ½), or the whole when nil.
  @inline(__always)
  private func taps(
    _ coordinates: Coordinates, level index: SIMD4<Int32>, uniform: Bool, share: SIMD4<Float>?
  ) -> Taps {
    // The four lanes' levels, one loaded once when they share it (the common case: its own
    // path, so that each of the level's values is one broadcast; as one expression, the
    // compiler gathered all four lanes' values and chose after).
    if uniform {
      let l = levels[Int(index.x)]
      return taps(coordinates, levels: (l, l, l, l), uniform: true, share: share)
    }
    let l = (levels[Int(index.x)], levels[Int(index.y)], levels[Int(index.z)], levels[Int(index.w)])
    return taps(coordinates, levels: l, uniform: false, share: share)
  }

  /// The taps of the four lanes' levels `l` (all the same when `uniform`), as above.
  @inline(__always)
  private func taps(
    _ coordinates: Coordinates,
    levels l: (
      MipmappedTexture.Level, MipmappedTexture.Level, MipmappedTexture.Level, MipmappedTexture.Level
    ),
    uniform: Bool, share: SIMD4<Float>?
  ) -> Taps {
    // Positions in 1/256ths of a texel from texel (0, 0)'s centre, rounded down: the whole part
    // picks the texels, the fraction (8 bits, as GPUs filter) weighs them. In [−128, 256·size).
    var x: SIMD4<Int32>, y: SIMD4<Int32>, base: SIMD4<Int32>, stride: SIMD4<Int32>
    @inline(__always) func lanes<T: SIMDScalar>(_ value: (MipmappedTexture.Level) -> T) -> SIMD4<T> {
      uniform ? SIMD4(repeating: value(l.0)) : SIMD4(value(l.0), value(l.1), value(l.2), value(l.3))
    }
    (base, stride) = (lanes(\.base), lanes(\.stride))
    if coordinates.inIntegers {
      @inline(__always) func wrapped(_ c: SIMD4<Float>, _ axis: Int) -> SIMD4<Int32> {
        let sum = c * lanes { $0.wrap.perUV[axis] } + lanes { $0.wrap.fraction[axis] }
        return (LaneMath.flooredSmall(sum) &+ lanes { $0.wrap.whole[axis] }) & lanes { $0.wrap.mask[axis] }
      }
      (x, y) = (wrapped(coordinates.x, 0), wrapped(coordinates.y, 1))
    } else {
      x = LaneMath.floored((coordinates.x * lanes { $0.size.x } - 0.5) * 256)
      y = LaneMath.floored((coordinates.y * lanes { $0.size.y } - 0.5) * 256)
    }
    // Rows from 0 to the level's height + 1 (the border), strides at most 2¹⁴ + 1.
    let top =
      base &+ LaneMath.smallProduct(LaneMath.shiftedRight(y, 8) &+ 1, stride) &+ LaneMath.shiftedRight(x, 8)
      &+ 1
    let ax = x & 255, ay = y & 255
    guard let share else {
      // The whole weight on this level: the products of the fractions, halved (exact in
      // integers; 2¹⁵ alone saturates to 32767 as it packs), as the products below give them
      // for a share of 256.
      let bx = 256 &- ax, by = 256 &- ay
      @inline(__always) func half(_ a: SIMD4<Int32>, _ b: SIMD4<Int32>) -> SIMD4<Int32> {
        LaneMath.shiftedRight(LaneMath.smallProduct(a, b), 1)
      }
      return Taps(
        top: top, bottom: top &+ stride,
        leftWeights: LaneMath.packedPairs(low: half(bx, by), high: half(bx, ay)),
        rightWeights: LaneMath.packedPairs(low: half(ax, by), high: half(ax, ay)))
    }
    let fx = LaneMath.float(ax), fy = LaneMath.float(ay)
    let bx = 256 - fx, by = 256 - fy
    // Products of whole numbers up to 2²⁴ times a power of two: exact, and truncated to integers
    // they are the weights (at most 2¹⁵, which alone does not fit 16 bits: saturated).
    let upper = by * share, lower = fy * share
    @inline(__always) func pair(_ left: SIMD4<Float>, _ right: SIMD4<Float>) -> SIMD4<Int32> {
      LaneMath.packedPairs(low: LaneMath.truncated(left), high: LaneMath.truncated(right))
    }
    return Taps(
      top: top, bottom: top &+ stride, leftWeights: pair(bx * upper, bx * lower),
      rightWeights: pair(fx * upper, fx * lower))
  }

  /// Texture coordinates as positions in [0, 1], t down, as the wrap mode says.
  @inline(__always)
  private func wrapped(_ u: SIMD4<Float>, _ v: SIMD4<Float>) -> (s: SIMD4<Float>, t: SIMD4<Float>) {
    var s = u * scale.x + offset.x, t = v * scale.y + offset.y
    if clamp {
      s = LaneMath.atMost(LaneMath.atLeastZero(s), 1)
      t = LaneMath.atMost(LaneMath.atLeastZero(t), 1)
    } else {
      // The fractional part; beyond 2²³ every Float is whole already, and NaN becomes 0.
      s = LaneMath.zeroUnlessBelow(s, magnitude: 0x1p23)
      t = LaneMath.zeroUnlessBelow(t, magnitude: 0x1p23)
      s -= LaneMath.float(LaneMath.floored(s))
      t -= LaneMath.float(LaneMath.floored(t))
    }
    return (s, 1 - t)  // v up in OBJ, rows down in memory
  }

  /// Samples four coordinates in one pass (see ``sample(u:v:level:count:inIntegers:scratch:tint:into:)``).
  @inline(__always)
  private func sampleFour(u: SIMD4<Float>, v: SIMD4<Float>, level: SIMD4<Float>) -> FourColors {
    let taps = levelTaps(coordinates(u, v, inIntegers: false), level: level)
    return filtered(taps.first, taps.second, blends: taps.blends)
  }

  /// The taps of the two levels around each of four coordinates' level, and whether any lane
  /// blends in the second (when none does, `second` is `first`).
  @inline(__always)
  private func levelTaps(_ coordinates: Coordinates, level: SIMD4<Float>) -> (
    first: Taps, second: Taps, blends: Bool
  ) {
    let last = Int32(levels.count &- 1)
    let l = LaneMath.atMost(LaneMath.atLeastZero(level), Float(last))
    let near = LaneMath.truncated(l)
    // The blend towards the next level, in 1/256ths; 0 at the last level.
    let blend = LaneMath.float(LaneMath.truncated((l - LaneMath.float(near)) * 256))
    let uniform = LaneMath.allEqual(near)
    let first = taps(coordinates, level: near, uniform: uniform, share: (256 - blend) * 0x1p-9)
    // Magnified, or exactly on a level: the next level adds nothing, so it is not read.
    let blends = LaneMath.anyPositive(blend)
    let second =
      blends
      ? taps(
        coordinates,
        level: SIMD4(
          near.x < last ? near.x &+ 1 : near.x, near.y < last ? near.y &+ 1 : near.y,
          near.z < last ? near.z &+ 1 : near.z, near.w < last ? near.w &+ 1 : near.w),
        uniform: uniform, share: blend * 0x1p-9) : first
    return (first, second, blends)
  }

  /// The four lanes' colours: the sum of the `first` level's taps and, when `blends`, the
  /// `second`'s, their weights summing to 2¹⁵.
  @inline(__always)
  private func filtered(_ first: Taps, _ second: Taps, blends: Bool) -> FourColors {
    @inline(__always) func lane(_ k: Int) -> SIMD4<Float> {
      /// The four taps of one level: each row's texel pair in one load, the rows interleaved
      /// into `(top, bottom)` pairs of the left texel's channels and of the right's.
      @inline(__always) func taps(_ level: Taps) -> SIMD4<Int32> {
        @inline(__always) func pair(_ index: Int32) -> SIMD8<Int16> {
          UnsafeRawPointer(entries + Int(index)).loadUnaligned(as: SIMD8<Int16>.self)
        }
        @inline(__always) func weights(_ w: Int32) -> SIMD8<Int16> {
          unsafeBitCast(SIMD4<Int32>(repeating: w), to: SIMD8<Int16>.self)
        }
        let top = pair(level.top[k]), bottom = pair(level.bottom[k])
        return LaneMath.multiplyAddPairs(LaneMath.interleavedLow(top, bottom), weights(level.leftWeights[k]))
          &+ LaneMath.multiplyAddPairs(LaneMath.interleavedHigh(top, bottom), weights(level.rightWeights[k]))
      }
      var sum = taps(first)
      if blends { sum = sum &+ taps(second) }
      // Weights sum to 2¹⁵, texels to 32767 at most.
      return LaneMath.float(sum) * (1 / (MipmappedTexture.unit * 32768))
    }
    return (lane(0), lane(1), lane(2), lane(3))
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Fast decimal-to-binary conversion for the readers' hot loops (OBJ, MTL, trajectories,
/// recordings).
///
/// Decimal numbers with at most 19 significant digits and a decimal exponent within ±22 convert
/// exactly with one multiplication or division by an exact power of ten (Clinger's fast path)
/// when the digits fit a Double's 53 bits. Up to 19 digits with an exponent within ±27 (the 17
/// digits of a shortest round-trip Double, as recorders write them) are rounded from a 128-bit
/// integer product or quotient by a power of five. Anything else goes to the C library's
/// `strtod`, so every result is correctly rounded.
package enum DecimalParser {
  /// 10⁰ … 10²², all exactly representable in a Double.
  @usableFromInline
  static let powersOfTen: [Double] = (0...22).map { e in (0..<e).reduce(1.0) { r, _ in r * 10 } }

  /// Parses a number starting at `start` and ending before the first whitespace, `/` (or `,`
  /// with `comma`), or `end`: `[+-] digits [. digits] [(e|E) [+-] digits]`, or `.5`, `5.`.
  /// With `json`, the token is JSON's stricter number instead (`-` the only sign, no leading
  /// zeros, digits on both sides of the point), ending at the first character that is not part
  /// of it, which the caller checks.
  ///
  /// - Returns: The value and the index after it, or `nil` when the token is not such a number
  ///   (including `nan` and `inf`, which OBJ does not allow).
  @inlinable @inline(__always)
  package static func parse(
    _ p: UnsafePointer<UInt8>, from start: Int, to end: Int, comma: Bool = false, json: Bool = false
  ) -> (value: Double, next: Int)? {
    var i = start
    var negative = false
    if i < end && (p[i] == UInt8(ascii: "-") || (!json && p[i] == UInt8(ascii: "+"))) {
      negative = p[i] == UInt8(ascii: "-")
      i += 1
    }
    if json {
      // One digit, or a nonzero digit and more; then a point needs a digit after it.
      guard i < end, p[i] &- 48 < 10, !(p[i] == 48 && i + 1 < end && p[i + 1] &- 48 < 10) else { return nil }
    }
    var mantissa: UInt64 = 0
    var digits = 0, significant = 0, exponent = 0
    var exact = true
    while i < end, p[i] &- 48 < 10 {
      if significant < 19 {
        mantissa = mantissa &* 10 &+ UInt64(p[i] &- 48)
        if mantissa != 0 { significant += 1 }
      } else {
        exponent += 1  // digits beyond 19 only scale (and make the fast path inexact)
        exact = false
      }
      digits += 1
      i += 1
    }
    if i < end && p[i] == UInt8(ascii: ".") {
      i += 1
      if json && !(i < end && p[i] &- 48 < 10) { return nil }
      while i < end, p[i] &- 48 < 10 {
        if significant < 19 {
          mantissa = mantissa &* 10 &+ UInt64(p[i] &- 48)
          if mantissa != 0 { significant += 1 }
          exponent -= 1
        } else {
          exact = false
        }
        digits += 1
        i += 1
      }
    }
    guard digits > 0 else { return nil }
    if i < end && (p[i] | 0x20) == UInt8(ascii: "e") {
      var j = i + 1
      var expNegative = false
      if j < end && (p[j] == UInt8(ascii: "-") || p[j] == UInt8(ascii: "+")) {
        expNegative = p[j] == UInt8(ascii: "-")
        j += 1
      }
      var e = 0, expDigits = 0
      while j < end, p[j] &- 48 < 10 {
        if e < 100_000 { e = e * 10 + Int(p[j] &- 48) }
        expDigits += 1
        j += 1
      }
      guard expDigits > 0 else { return nil }
      exponent += expNegative ? -e : e
      i = j
    }
    // The token must end here.
    if !json && i < end {
      let c = p[i]
      guard
        c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") || c == UInt8(ascii: "/") || c == UInt8(ascii: "\r")
          || (comma && c == UInt8(ascii: ","))
      else { return nil }
    }
    if exact && mantissa < (1 << 53) && exponent >= -22 && exponent <= 22 {
      var value = Double(mantissa)
      value = exponent < 0 ? value / powersOfTen[-exponent] : value * powersOfTen[exponent]
      return (negative ? -value : value, i)
    }
    if exact, let value = wide(mantissa, exponent: exponent) { return (negative ? -value : value, i) }
    return slowPath(p, from: start, to: i)
  }

  /// 5⁰ … 5²⁷, every power of five below 2⁶⁴.
  @usableFromInline
  static let powersOfFive: [UInt64] = (0...27).map { e in (0..<e).reduce(1) { r, _ in r * 5 } }

  /// `mantissa` × 10^`exponent` correctly rounded, for |exponent| ≤ 27, or nil beyond. Since
  /// 10ᵉ = 5ᵉ·2ᵉ and 5²⁷ < 2⁶⁴, the product (mantissa·5ᵉ) or the quotient (mantissa·2ˢ / 5ᵉ, with
  /// 63 or more bits) is an integer of at most 128 bits whose rounding to 53 bits, with the
  /// remainder as a sticky bit, is the correctly rounded value.
  @usableFromInline
  static func wide(_ mantissa: UInt64, exponent: Int) -> Double? {
    guard mantissa != 0 else { return 0 }
    guard exponent >= -27 && exponent <= 27 else { return nil }
    if exponent >= 0 {
      let product = UInt128(mantissa) * UInt128(powersOfFive[exponent])
      return rounded(product, sticky: false, binaryExponent: exponent)
    }
    let shift = 127 - (64 - mantissa.leadingZeroBitCount)
    let divisor = UInt128(powersOfFive[-exponent])
    let (quotient, remainder) = (UInt128(mantissa) << shift).quotientAndRemainder(dividingBy: divisor)
    return rounded(quotient, sticky: remainder != 0, binaryExponent: exponent - shift)
  }

  /// `value` × 2^`binaryExponent` rounded to the nearest Double (ties to even), `sticky` saying
  /// that nonzero bits lie below `value`. The result is far from the subnormal and overflow
  /// ranges for the inputs of ``wide(_:exponent:)``.
  @usableFromInline
  static func rounded(_ value: UInt128, sticky: Bool, binaryExponent: Int) -> Double {
    let width = 128 - value.leadingZeroBitCount
    guard width > 53 else { return Double(sign: .plus, exponent: binaryExponent, significand: Double(value)) }
    let dropped = width - 53
    var kept = UInt64(truncatingIfNeeded: value >> dropped)
    let half = UInt128(1) << (dropped - 1)
    let rest = value & ((half << 1) - 1)
    if rest > half || (rest == half && (sticky || kept & 1 == 1)) { kept += 1 }
    return Double(sign: .plus, exponent: binaryExponent + dropped, significand: Double(kept))
  }

  /// Correctly rounded conversion by `strtod` of the token `p[start..<end]`.
  @usableFromInline
  static func slowPath(_ p: UnsafePointer<UInt8>, from start: Int, to end: Int) -> (value: Double, next: Int)?
  {
    var buffer = [CChar](repeating: 0, count: end - start + 1)
    for k in start..<end { buffer[k - start] = CChar(bitPattern: p[k]) }
    let value = buffer.withUnsafeBufferPointer { strtod($0.baseAddress!, nil) }
    guard value.isFinite else { return nil }
    return (value, end)
  }
}

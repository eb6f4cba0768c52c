/// Pinhole intrinsics `FX,FY,CX,CY` in pixels: focal lengths finite and positive, the principal
/// point finite (ARScene's pixel convention: origin top-left, centres at +0.5).
struct PinholeValues: OptionValue {
  var fx: Double
  var fy: Double
  var cx: Double
  var cy: Double

  init(parsing text: String) throws(OptionValueError) {
    let k = try NumberList.parse(text, count: 4)
    guard k[0] > 0 else { throw OptionValueError("fx must be a positive finite number of pixels") }
    guard k[1] > 0 else { throw OptionValueError("fy must be a positive finite number of pixels") }
    (fx, fy, cx, cy) = (k[0], k[1], k[2], k[3])
  }
}

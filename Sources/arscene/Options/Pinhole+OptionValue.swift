import ARMath
import ArgumentParser

/// `--intrinsics FX,FY,CX,CY` in pixels: focal lengths finite and positive, the principal point
/// finite (ARScene's pixel convention: origin top-left, centres at +0.5).
extension Pinhole: OptionValue where Scalar == Double {
  init(parsing text: String) throws(OptionValueError) {
    let k = try NumberList.parse(text, count: 4)
    do { self = try Pinhole(validatingFx: k[0], fy: k[1], cx: k[2], cy: k[3]) } catch {
      throw OptionValueError(error.description)
    }
  }
}

extension Pinhole: ExpressibleByArgument where Scalar == Double {
  public init?(argument: String) {
    guard let value = try? Self(parsing: argument) else { return nil }
    self = value
  }
}

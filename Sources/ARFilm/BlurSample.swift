import ARMath
import Foundation

/// What ``GaussianBlur`` blurs: one channel (`Float`) or four at once (`SIMD4<Float>`).
public protocol BlurSample: Sendable {
  static var zero: Self { get }
  static func + (a: Self, b: Self) -> Self
  static func - (a: Self, b: Self) -> Self
  static func * (a: Self, b: Float) -> Self
  static func += (a: inout Self, b: Self)
}

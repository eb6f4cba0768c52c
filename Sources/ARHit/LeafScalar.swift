import ARMath
import Dispatch

/// A scalar that ``LeafTriangles`` packets are made of.
@usableFromInline
protocol LeafScalar: BinaryFloatingPoint, SendableMetatype {
  /// The packet's index field holding `index`.
  init(triangleIndex index: Int32)
  /// The triangle index this index field holds.
  var triangleIndex: Int { get }
  /// The coordinate as a `Double`, exactly.
  var widened: Double { get }
}

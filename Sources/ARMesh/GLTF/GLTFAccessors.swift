import Foundation

/// Reads a glTF asset's accessors as numbers, checking each against its buffer view and buffer:
/// every component type, normalized integers, interleaved views (`byteStride`) and sparse
/// accessors. Reads are unaligned-safe: exporters do write misaligned views.
struct GLTFAccessors {
  let container: GLTFContainer
  /// What has been decoded, by accessor: meshes sharing vertex accessors (kits of parts, each
  /// part drawn by many meshes) decode each once.
  private let decoded = DecodedAccessors()

  init(container: GLTFContainer) { self.container = container }

  /// Decoded accessors, shared by the copies of one ``GLTFAccessors`` (a lock for loads that
  /// share them across threads).
  private final class DecodedAccessors: @unchecked Sendable {
    private let lock = NSLock()
    private var numbers: [Int: (values: [Double], components: Int)] = [:]
    private var vectors: [Int: [SIMD3<Double>]] = [:]

    func numbers(_ index: Int) -> (values: [Double], components: Int)? { lock.withLock { numbers[index] } }
    func vectors(_ index: Int) -> [SIMD3<Double>]? { lock.withLock { vectors[index] } }
    func keep(_ value: (values: [Double], components: Int), _ index: Int) {
      lock.withLock { numbers[index] = value }
    }
    func keep(_ value: [SIMD3<Double>], _ index: Int) { lock.withLock { vectors[index] = value } }
    private var draco: [String: (mesh: GLTFCompression.DracoMesh, uses: Int)] = [:]
    func takeDraco(_ pointer: String) -> GLTFCompression.DracoMesh? {
      lock.withLock {
        guard let kept = draco[pointer] else { return nil }
        draco[pointer] = kept.uses > 1 ? (kept.mesh, kept.uses - 1) : nil
        return kept.mesh
      }
    }
    func keep(_ mesh: GLTFCompression.DracoMesh, _ pointer: String, uses: Int) {
      lock.withLock { draco[pointer] = (mesh, uses) }
    }
  }

  /// The Draco mesh decoded ahead for the primitive at `pointer` (`/meshes/2/primitives/0`),
  /// if any; it is let go after its last use.
  func takeDecodedDraco(at pointer: String) -> GLTFCompression.DracoMesh? { decoded.takeDraco(pointer) }

  /// Keeps the Draco mesh decoded ahead for the primitive at `pointer` for its `uses` (the
  /// nodes that draw its mesh): decoded once, held no longer than needed.
  func keep(draco mesh: GLTFCompression.DracoMesh, at pointer: String, uses: Int) {
    decoded.keep(mesh, pointer, uses: uses)
  }

  /// Bytes a component of `componentType` takes, nil for a type glTF does not define.
  static func componentSize(_ componentType: Int) -> Int? {
    switch componentType {
    case 5120, 5121: 1
    case 5122, 5123: 2
    case 5125, 5126: 4
    default: nil
    }
  }

  /// Components an element of `type` has.
  static func components(_ type: String) -> Int? {
    switch type {
    case "SCALAR": 1
    case "VEC2": 2
    case "VEC3": 3
    case "VEC4", "MAT2": 4
    case "MAT3": 9
    case "MAT4": 16
    default: nil
    }
  }

  private func fail(_ pointer: String, _ reason: String) -> GLTFError {
    GLTFError(path: container.path, pointer: pointer, reason: reason)
  }

  /// Accessor `index` checked: it exists, its component type and element type (one of
  /// `types`) are glTF's, and its count is sane.
  private func accessor(_ index: Int, expect types: Set<String>, at pointer: String) throws(GLTFError) -> (
    accessor: GLTFDocument.Accessor, componentSize: Int, components: Int, pointer: String
  ) {
    let accessors = container.document.accessors ?? []
    guard accessors.indices.contains(index) else {
      throw fail(pointer, "accessor \(index) does not exist (\(accessors.count) accessors)")
    }
    let a = accessors[index]
    let here = "/accessors/\(index)"
    guard let size = Self.componentSize(a.componentType) else {
      throw fail(here + "/componentType", "\(a.componentType) is no glTF component type")
    }
    guard let n = Self.components(a.type), types.contains(a.type) else {
      throw fail(
        here + "/type", "'\(a.type)' where \(pointer) needs \(types.sorted().joined(separator: " or "))")
    }
    guard a.count >= 1, a.count <= 1 << 28 else {
      throw fail(here + "/count", "\(a.count) is not from 1 to 2^28")
    }
    return (a, size, n, here)
  }

  /// Accessor `index`'s elements as `Double`s (row after row, `components` a row), normalized
  /// integers mapped to [0, 1] or [−1, 1]. `expect` lists the element types the caller accepts.
  func read(_ index: Int, expect types: Set<String>, at pointer: String) throws(GLTFError) -> (
    values: [Double], components: Int
  ) {
    let (a, size, n, here) = try accessor(index, expect: types, at: pointer)
    if let known = decoded.numbers(index) { return known }
    var values = [Double](repeating: 0, count: a.count * n)
    if let view = a.bufferView {
      let (bytes, start, stride) = try viewBytes(
        view, offset: a.byteOffset ?? 0, elementSize: size * n, count: a.count, at: here)
      values.withUnsafeMutableBufferPointer { out in
        Self.convert(
          bytes, start: start, stride: stride, count: a.count, components: n, type: a.componentType,
          normalized: a.normalized ?? false, into: out.baseAddress!, rowStride: n)
      }
    }
    if let sparse = a.sparse {
      try applySparse(sparse, to: &values, accessor: a, components: n, at: here + "/sparse")
    }
    // Only floats can be NaN or infinite.
    guard a.componentType != 5126 || values.allSatisfy(\.isFinite) else {
      throw fail(here, "holds a number that is not finite")
    }
    decoded.keep((values, n), index)
    return (values, n)
  }

  /// `count` elements of `components` components of `type` from `bytes`, the first at `start`
  /// and the next every `stride` bytes, into `out`, a row every `rowStride` numbers (lanes past
  /// the components zeroed): a loop per component type, so that the common float and index
  /// accessors convert without a decision per number.
  private static func convert(
    _ bytes: ArraySlice<UInt8>, start: Int, stride: Int, count: Int, components n: Int, type: Int,
    normalized: Bool,
    into out: UnsafeMutablePointer<Double>, rowStride: Int
  ) {
    bytes.withUnsafeBytes { raw in
      func each<T: FixedWidthInteger>(_: T.Type, _ value: (T) -> Double) {
        for e in 0..<count {
          for c in 0..<n {
            let offset = start + e * stride + c * MemoryLayout<T>.size
            out[e * rowStride + c] = value(
              T(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: T.self)))
          }
          for c in n..<rowStride { out[e * rowStride + c] = 0 }
        }
      }
      // Signed normalized integers: −1 for the two smallest values (max(x / max, −1) in the
      // specification).
      func scaled<T: FixedWidthInteger>(_: T.Type, _ divisor: Double) {
        each(T.self) { normalized ? Swift.max(Double($0) / divisor, -1) : Double($0) }
      }
      switch type {
      case 5120: scaled(Int8.self, 127)
      case 5121: scaled(UInt8.self, 255)
      case 5122: scaled(Int16.self, 32767)
      case 5123: scaled(UInt16.self, 65535)
      case 5125: each(UInt32.self) { Double($0) }
      default: each(UInt32.self) { Double(Float(bitPattern: $0)) }
      }
    }
  }

  /// A VEC3 accessor's elements as vectors, converted straight into them (a mesh's positions
  /// and normals), through ``read(_:expect:at:)`` only for a sparse accessor.
  func vectors3(_ index: Int, at pointer: String) throws(GLTFError) -> [SIMD3<Double>] {
    let (a, size, n, here) = try accessor(index, expect: ["VEC3"], at: pointer)
    if let known = decoded.vectors(index) { return known }
    guard a.sparse == nil, let view = a.bufferView else {
      return GLTFPrimitiveAttributes.rows3(try read(index, expect: ["VEC3"], at: pointer).values)
    }
    let (bytes, start, stride) = try viewBytes(
      view, offset: a.byteOffset ?? 0, elementSize: size * n, count: a.count, at: here)
    let rows = [SIMD3<Double>](unsafeUninitializedCapacity: a.count) { rows, initialized in
      // A SIMD3<Double> is laid out as four Doubles, the fourth padding.
      UnsafeMutableRawPointer(rows.baseAddress!).withMemoryRebound(to: Double.self, capacity: 4 * a.count) {
        Self.convert(
          bytes, start: start, stride: stride, count: a.count, components: 3, type: a.componentType,
          normalized: a.normalized ?? false, into: $0, rowStride: 4)
      }
      initialized = a.count
    }
    guard a.componentType != 5126 || rows.allFinite
    else {
      throw fail(here, "holds a number that is not finite")
    }
    decoded.keep(rows, index)
    return rows
  }

  /// Accessor `index` as vertex indices, each below `vertexCount`: read straight into 32-bit
  /// integers (a mesh's largest array), through `Double`s only for a sparse accessor.
  func indices(_ index: Int, vertexCount: Int, at pointer: String) throws(GLTFError) -> [UInt32] {
    let (a, size, _, here) = try accessor(index, expect: ["SCALAR"], at: pointer)
    guard [5121, 5123, 5125].contains(a.componentType), a.normalized != true else {
      throw fail(here + "/componentType", "\(a.componentType) is no index type (5121, 5123, 5125)")
    }
    var out: [UInt32]
    if a.sparse != nil || a.bufferView == nil {
      out = try read(index, expect: ["SCALAR"], at: pointer).values.map { UInt32($0) }
    } else {
      let (bytes, start, stride) = try viewBytes(
        a.bufferView!, offset: a.byteOffset ?? 0, elementSize: size, count: a.count, at: here)
      out = [UInt32](unsafeUninitializedCapacity: a.count) { out, initialized in
        bytes.withUnsafeBytes { raw in
          func each<T: FixedWidthInteger>(_: T.Type) {
            for e in 0..<a.count {
              out[e] = UInt32(
                T(littleEndian: raw.loadUnaligned(fromByteOffset: start + e * stride, as: T.self)))
            }
          }
          switch a.componentType {
          case 5121: each(UInt8.self)
          case 5123: each(UInt16.self)
          default: each(UInt32.self)
          }
        }
        initialized = a.count
      }
    }
    if let i = out.firstIndex(where: { Int($0) >= vertexCount }) {
      throw fail(here, "index \(out[i]) at \(i) is past the primitive's \(vertexCount) vertices")
    }
    return out
  }

  /// The bytes of buffer view `view`'s buffer, where the accessor's first element starts in them
  /// and the stride, after checking that `count` elements of `elementSize` fit in the view and
  /// the view in its buffer.
  private func viewBytes(_ view: Int, offset: Int, elementSize: Int, count: Int, at here: String)
    throws(GLTFError)
    -> (ArraySlice<UInt8>, Int, Int)
  {
    let views = container.document.bufferViews ?? []
    guard views.indices.contains(view) else {
      throw fail(here + "/bufferView", "buffer view \(view) does not exist (\(views.count) views)")
    }
    let v = views[view]
    let vp = "/bufferViews/\(view)"
    if let decoded = container.decodedViews[view] {
      return try fitting(
        ArraySlice(decoded), viewOffset: 0, view: v, offset: offset, elementSize: elementSize, count: count,
        at: here)
    }
    guard container.buffers.indices.contains(v.buffer) else {
      throw fail(vp + "/buffer", "buffer \(v.buffer) does not exist (\(container.buffers.count) buffers)")
    }
    let buffer = container.buffers[v.buffer]
    let viewOffset = v.byteOffset ?? 0
    guard viewOffset >= 0, v.byteLength >= 0, viewOffset <= buffer.count,
      v.byteLength <= buffer.count - viewOffset
    else {
      throw fail(
        vp,
        "\(v.byteLength) bytes from byte \(viewOffset) run past buffer \(v.buffer)'s \(buffer.count) bytes")
    }
    return try fitting(
      buffer, viewOffset: viewOffset, view: v, offset: offset, elementSize: elementSize, count: count,
      at: here)
  }

  /// `bytes` (a buffer, or a decoded view), the accessor's first element's offset in them and
  /// the stride, after checking that `count` elements of `elementSize` fit in view `v`.
  private func fitting(
    _ bytes: ArraySlice<UInt8>, viewOffset: Int, view v: GLTFDocument.BufferView, offset: Int,
    elementSize: Int,
    count: Int,
    at here: String
  ) throws(GLTFError) -> (ArraySlice<UInt8>, Int, Int) {
    let vp = here + "/bufferView"
    let stride = v.byteStride ?? elementSize
    guard stride >= elementSize, stride <= 252 || v.byteStride == nil else {
      throw fail(vp + "/byteStride", "\(stride) is not from the element's \(elementSize) bytes to 252")
    }
    guard offset >= 0 else { throw fail(here + "/byteOffset", "\(offset) is negative") }
    let needed = offset + stride * (count - 1) + elementSize
    guard needed <= v.byteLength else {
      throw fail(
        here + "/count",
        "\(count) elements of \(elementSize) bytes\(stride != elementSize ? " every \(stride)" : "") from byte \(offset) need \(needed) bytes, the buffer view has \(v.byteLength)"
      )
    }
    return (bytes, viewOffset + offset, stride)
  }

  /// One component at byte `at`, little-endian.
  private func component(_ raw: UnsafeRawBufferPointer, _ at: Int, _ type: Int, _ normalized: Bool) -> Double
  {
    switch type {
    case 5120:
      let x = Double(Int8(bitPattern: raw[at]))
      return normalized ? Swift.max(x / 127, -1) : x
    case 5121:
      let x = Double(raw[at])
      return normalized ? x / 255 : x
    case 5122:
      let x = Double(Int16(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: Int16.self)))
      return normalized ? Swift.max(x / 32767, -1) : x
    case 5123:
      let x = Double(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt16.self)))
      return normalized ? x / 65535 : x
    case 5125: return Double(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt32.self)))
    default:
      let bits = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt32.self))
      return Double(Float(bitPattern: bits))
    }
  }

  /// Replaces the elements a sparse accessor lists (indices strictly increasing, below count).
  private func applySparse(
    _ sparse: GLTFDocument.Sparse, to values: inout [Double], accessor a: GLTFDocument.Accessor,
    components n: Int,
    at here: String
  ) throws(GLTFError) {
    guard sparse.count >= 1, sparse.count <= a.count else {
      throw fail(here + "/count", "\(sparse.count) is not from 1 to the accessor's \(a.count)")
    }
    guard [5121, 5123, 5125].contains(sparse.indices.componentType),
      let indexSize = Self.componentSize(sparse.indices.componentType)
    else {
      throw fail(here + "/indices/componentType", "\(sparse.indices.componentType) is no index type")
    }
    let (indexBytes, indexStart, _) = try viewBytes(
      sparse.indices.bufferView, offset: sparse.indices.byteOffset ?? 0, elementSize: indexSize,
      count: sparse.count,
      at: here + "/indices")
    let size = Self.componentSize(a.componentType)!
    let (valueBytes, valueStart, _) = try viewBytes(
      sparse.values.bufferView, offset: sparse.values.byteOffset ?? 0, elementSize: size * n,
      count: sparse.count,
      at: here + "/values")
    var previous = -1
    for k in 0..<sparse.count {
      let target = indexBytes.withUnsafeBytes { raw in
        Int(component(raw, indexStart + k * indexSize, sparse.indices.componentType, false))
      }
      guard target > previous, target < a.count else {
        throw fail(here + "/indices", "index \(target) at \(k) is not increasing and below \(a.count)")
      }
      previous = target
      for c in 0..<n {
        values[target * n + c] = valueBytes.withUnsafeBytes { raw in
          component(raw, valueStart + (k * n + c) * size, a.componentType, a.normalized ?? false)
        }
      }
    }
  }
}

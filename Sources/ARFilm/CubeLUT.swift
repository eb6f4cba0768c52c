import ARFiles
import ARImage
import Foundation

/// A colour lookup table in the `.cube` format colour-grading tools export (Adobe's
/// specification, with Resolve's `LUT_1D_INPUT_RANGE`/`LUT_3D_INPUT_RANGE`): a 1D table (a curve
/// per channel) or a 3D lattice (an RGB colour at each of N³ points, red varying fastest).
///
/// Values are whatever the table was made for; grading tools apply a LUT to an image's encoded
/// values in [0, 1], as `arscene film apply --lut` does. Inputs outside the domain are clamped to
/// it.
public struct CubeLUT: Sendable, Equatable {
  /// One curve per channel, or a lattice.
  public enum Kind: Sendable, Equatable {
    /// A 1D table (`LUT_1D_SIZE`): each channel through its own curve.
    case oneDimensional
    /// A 3D table (`LUT_3D_SIZE`): colour through a lattice.
    case threeDimensional
  }

  /// How a 3D table is interpolated between its lattice points.
  public enum Interpolation: String, Sendable, Codable {
    /// Between the 8 corners of the cell (colour-science's and most tools' default).
    case trilinear
    /// Between the 4 corners of the cell's tetrahedron the colour falls in: keeps neutral
    /// greys neutral, and is what Resolve and OCIO's best setting use.
    case tetrahedral
  }

  /// Whether the file holds a 3D or a 1D table.
  public let kind: Kind
  /// The file's `TITLE`, when it has one.
  public let title: String?
  /// Entries along each axis (a 1D table's length).
  public let size: Int
  /// The input values the table's first and last entries stand for, per channel.
  public let domainMin: SIMD3<Float>, domainMax: SIMD3<Float>
  /// The entries, red fastest then green then blue for a 3D table.
  public let table: [SIMD3<Float>]

  /// The largest 1D and 3D sizes accepted (as Resolve and OCIO limit them).
  public static let maximum1DSize = 65536, maximum3DSize = 256

  /// Parses `.cube` text; `path` names the file in errors.
  /// - Throws: ``FilmError`` naming the file, the line and what is wrong: no or two size lines,
  ///   a size out of range, a malformed or non-finite number, a domain whose minimum is not
  ///   below its maximum, too few or too many entries.
  public init(text: String, path: String) throws(FilmError) {
    var title: String?
    var kind: Kind?, size = 0
    var domainMin = SIMD3<Float>(repeating: 0), domainMax = SIMD3<Float>(repeating: 1)
    var table: [SIMD3<Float>] = []
    var lineNumber = 0, lastLine = 0
    func fail(_ field: String, _ reason: String) -> FilmError {
      .invalidFile(path: path, line: lineNumber, field: field, reason: reason)
    }
    func numbers(_ words: ArraySlice<Substring>, _ count: Int, _ field: String) throws(FilmError) -> [Float] {
      guard words.count == count else { throw fail(field, "expected \(count) numbers, found \(words.count)") }
      var values: [Float] = []
      for w in words {
        guard let v = Float(w), v.isFinite else { throw fail(field, "'\(w)' is not a finite number") }
        values.append(v)
      }
      return values
    }
    for raw in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
      lineNumber += 1
      let line = raw.trimmingCharacters(in: .whitespaces)
      if line.isEmpty || line.hasPrefix("#") { continue }
      lastLine = lineNumber
      let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
      let keyword = String(words[0])
      switch keyword {
      case "TITLE":
        let rest = line.dropFirst(5).trimmingCharacters(in: .whitespaces)
        title = rest.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
      case "LUT_1D_SIZE", "LUT_3D_SIZE":
        guard kind == nil else { throw fail(keyword, "a second size line") }
        guard table.isEmpty else { throw fail(keyword, "the size must come before the entries") }
        let isThreeD = keyword == "LUT_3D_SIZE"
        let limit = isThreeD ? Self.maximum3DSize : Self.maximum1DSize
        guard words.count == 2, let n = Int(words[1]), (2...limit).contains(n) else {
          throw fail(keyword, "expected a size from 2 to \(limit)")
        }
        (kind, size) = (isThreeD ? .threeDimensional : .oneDimensional, n)
        table.reserveCapacity(isThreeD ? n * n * n : n)
      case "DOMAIN_MIN":
        let v = try numbers(words.dropFirst(), 3, keyword)
        domainMin = SIMD3(v[0], v[1], v[2])
      case "DOMAIN_MAX":
        let v = try numbers(words.dropFirst(), 3, keyword)
        domainMax = SIMD3(v[0], v[1], v[2])
      case "LUT_1D_INPUT_RANGE", "LUT_3D_INPUT_RANGE":
        let v = try numbers(words.dropFirst(), 2, keyword)
        (domainMin, domainMax) = (SIMD3(repeating: v[0]), SIMD3(repeating: v[1]))
      default:
        guard let first = keyword.first, first.isNumber || first == "-" || first == "." || first == "+" else {
          throw fail(keyword, "unknown keyword")
        }
        guard kind != nil else { throw fail("entry", "an entry before LUT_1D_SIZE or LUT_3D_SIZE") }
        let v = try numbers(words[...], 3, "entry \(table.count + 1)")
        table.append(SIMD3(v[0], v[1], v[2]))
      }
    }
    // Faults of the whole file are reported at its last line.
    lineNumber = lastLine
    guard let kind else { throw fail("LUT_3D_SIZE", "no LUT_1D_SIZE or LUT_3D_SIZE line") }
    let expected = kind == .threeDimensional ? size * size * size : size
    guard table.count == expected else {
      throw fail("entries", "expected \(expected) entries for size \(size), found \(table.count)")
    }
    for c in 0..<3 where !(domainMin[c] < domainMax[c]) {
      throw fail(
        "DOMAIN_MIN", "the domain's minimum \(domainMin[c]) is not below its maximum \(domainMax[c])")
    }
    self.kind = kind
    self.title = title
    self.size = size
    self.domainMin = domainMin
    self.domainMax = domainMax
    self.table = table
  }

  /// Reads a `.cube` file.
  public init(path: String) throws(FilmError) {
    let text: String
    do { text = String(decoding: try FileIO.readText(path), as: UTF8.self) } catch {
      throw .unreadable(path: path, reason: error.reason)
    }
    try self.init(text: text, path: path)
  }

  /// Whether every entry is its own input (to 1e-6) over the unit domain: a table that changes
  /// nothing, which a look skips.
  public var isIdentity: Bool {
    guard domainMin == SIMD3(repeating: 0), domainMax == SIMD3(repeating: 1) else { return false }
    let n = Float(size - 1)
    for (k, entry) in table.enumerated() {
      let expected: SIMD3<Float> =
        kind == .oneDimensional
        ? SIMD3(repeating: Float(k) / n)
        : SIMD3(Float(k % size), Float(k / size % size), Float(k / (size * size))) / n
      let d = entry - expected
      if max(abs(d.x), abs(d.y), abs(d.z)) > 1e-6 { return false }
    }
    return true
  }

  /// The table's colour for `rgb` (in the domain's units).
  @inline(__always)
  public func apply(_ rgb: SIMD3<Float>, interpolation: Interpolation = .trilinear) -> SIMD3<Float> {
    let n = Float(size - 1)
    var p = (rgb - domainMin) / (domainMax - domainMin) * n
    p = p.replacing(with: 0, where: .!(p .>= 0)).replacing(with: n, where: p .> n)  // NaN to 0
    return table.withUnsafeBufferPointer { t in
      if kind == .oneDimensional {
        var out = SIMD3<Float>()
        for c in 0..<3 {
          let i = min(Int(p[c]), size - 2), f = p[c] - Float(i)
          out[c] = t[i][c] + (t[i + 1][c] - t[i][c]) * f
        }
        return out
      }
      let i = SIMD3<Int>(min(Int(p.x), size - 2), min(Int(p.y), size - 2), min(Int(p.z), size - 2))
      let f = p - SIMD3<Float>(Float(i.x), Float(i.y), Float(i.z))
      let (sy, sz) = (size, size * size)
      let base = i.x + i.y * sy + i.z * sz
      @inline(__always) func at(_ dx: Int, _ dy: Int, _ dz: Int) -> SIMD3<Float> {
        t[base + dx + dy * sy + dz * sz]
      }
      switch interpolation {
      case .trilinear:
        let c00 = at(0, 0, 0) + (at(1, 0, 0) - at(0, 0, 0)) * f.x
        let c10 = at(0, 1, 0) + (at(1, 1, 0) - at(0, 1, 0)) * f.x
        let c01 = at(0, 0, 1) + (at(1, 0, 1) - at(0, 0, 1)) * f.x
        let c11 = at(0, 1, 1) + (at(1, 1, 1) - at(0, 1, 1)) * f.x
        let c0 = c00 + (c10 - c00) * f.y, c1 = c01 + (c11 - c01) * f.y
        return c0 + (c1 - c0) * f.z
      case .tetrahedral:
        // The cell's six tetrahedra share the diagonal from (0,0,0) to (1,1,1); the order of the
        // fractions picks one, and the colour is a walk along three of its edges.
        let c000 = at(0, 0, 0), c111 = at(1, 1, 1)
        if f.x >= f.y {
          if f.y >= f.z {
            return c000 + (at(1, 0, 0) - c000) * f.x + (at(1, 1, 0) - at(1, 0, 0)) * f.y
              + (c111 - at(1, 1, 0)) * f.z
          } else if f.x >= f.z {
            return c000 + (at(1, 0, 0) - c000) * f.x + (at(1, 0, 1) - at(1, 0, 0)) * f.z
              + (c111 - at(1, 0, 1)) * f.y
          } else {
            return c000 + (at(0, 0, 1) - c000) * f.z + (at(1, 0, 1) - at(0, 0, 1)) * f.x
              + (c111 - at(1, 0, 1)) * f.y
          }
        } else {
          if f.z >= f.y {
            return c000 + (at(0, 0, 1) - c000) * f.z + (at(0, 1, 1) - at(0, 0, 1)) * f.y
              + (c111 - at(0, 1, 1)) * f.x
          } else if f.z >= f.x {
            return c000 + (at(0, 1, 0) - c000) * f.y + (at(0, 1, 1) - at(0, 1, 0)) * f.z
              + (c111 - at(0, 1, 1)) * f.x
          } else {
            return c000 + (at(0, 1, 0) - c000) * f.y + (at(1, 1, 0) - at(0, 1, 0)) * f.x
              + (c111 - at(1, 1, 0)) * f.z
          }
        }
      }
    }
  }
}

extension CubeLUT {
  /// The LUT applied to an 8-bit image's encoded values (each code / 255), as grading tools
  /// apply one, rounded back to 8-bit codes; alpha kept.
  public func applyToEncoded(_ image: RGBA8Image, interpolation: Interpolation = .trilinear) -> RGBA8Image {
    image.map { p in
      let out = apply(SIMD3(Float(p.x), Float(p.y), Float(p.z)) / 255, interpolation: interpolation)
      func code(_ v: Float) -> UInt8 { v > 0 ? UInt8(min(v, 1) * 255 + 0.5) : 0 }
      return SIMD4(code(out.x), code(out.y), code(out.z), p.w)
    }
  }
}

import Foundation

/// A PLY reader for point clouds: the header, then the `vertex` element in ASCII or binary.
struct PLYReader {
  let path: String
  let bytes: [UInt8]

  struct Property {
    let name: String
    let type: String  // char, uchar, short, ushort, int, uint, float, double (and aliases)
  }

  static func size(of type: String) -> Int? {
    switch type {
    case "char", "uchar", "int8", "uint8": 1
    case "short", "ushort", "int16", "uint16": 2
    case "int", "uint", "float", "int32", "uint32", "float32": 4
    case "double", "float64": 8
    default: nil
    }
  }

  func fail(_ line: Int, _ reason: String) -> PoseError { .badFile(path: path, line: line, reason: reason) }

  func read() throws(PoseError) -> PointCloud {
    // Header: lines up to "end_header".
    var offset = 0, lineNumber = 0
    var format = "", elements: [(name: String, count: Int, properties: [Property])] = []
    while true {
      guard let newline = bytes[offset...].firstIndex(of: 10) else {
        throw fail(lineNumber + 1, "the header never ends")
      }
      lineNumber += 1
      let line = String(decoding: bytes[offset..<newline], as: UTF8.self).trimmingCharacters(
        in: .whitespacesAndNewlines)
      offset = newline + 1
      let words = line.split(separator: " ").map(String.init)
      guard let keyword = words.first else { continue }
      switch keyword {
      case "ply", "comment", "obj_info": continue
      case "format":
        guard words.count >= 2 else { throw fail(lineNumber, "format needs a type") }
        format = words[1]
      case "element":
        guard words.count == 3, let count = Int(words[2]), count >= 0 else {
          throw fail(lineNumber, "bad element line")
        }
        elements.append((words[1], count, []))
      case "property":
        guard !elements.isEmpty else { throw fail(lineNumber, "property before any element") }
        if words.count >= 2 && words[1] == "list" {
          guard words.count == 5 else { throw fail(lineNumber, "bad list property") }
          elements[elements.count - 1].properties.append(
            Property(name: words[4], type: "list:\(words[2]):\(words[3])"))
        } else {
          guard words.count == 3, Self.size(of: words[1]) != nil else {
            throw fail(lineNumber, "unknown property type '\(words.count > 1 ? words[1] : "")'")
          }
          elements[elements.count - 1].properties.append(Property(name: words[2], type: words[1]))
        }
      case "end_header":
        return try body(from: offset, line: lineNumber, format: format, elements: elements)
      default:
        throw fail(lineNumber, "unknown header line '\(keyword)'")
      }
    }
  }

  private func body(
    from start: Int, line headerLines: Int, format: String,
    elements: [(name: String, count: Int, properties: [Property])]
  ) throws(PoseError) -> PointCloud {
    guard let vertexIndex = elements.firstIndex(where: { $0.name == "vertex" }) else {
      throw fail(0, "no vertex element")
    }
    let vertex = elements[vertexIndex]
    let names = vertex.properties.map(\.name)
    guard let ix = names.firstIndex(of: "x"), let iy = names.firstIndex(of: "y"),
      let iz = names.firstIndex(of: "z")
    else {
      throw fail(0, "the vertex element needs x, y and z properties")
    }
    let ic = names.firstIndex(of: "confidence")
    guard elements[..<vertexIndex].allSatisfy({ $0.count == 0 }) else {
      throw fail(0, "elements before 'vertex' are not supported")
    }
    var points: [SIMD3<Double>] = [], confidences: [Double] = []
    points.reserveCapacity(vertex.count)
    switch format {
    case "ascii":
      var offset = start, lineNumber = headerLines
      for v in 0..<vertex.count {
        guard offset < bytes.count else {
          throw fail(lineNumber + 1, "vertex \(v) of \(vertex.count) is missing (truncated)")
        }
        let end = bytes[offset...].firstIndex(of: 10) ?? bytes.count
        lineNumber += 1
        let words = String(decoding: bytes[offset..<end], as: UTF8.self).split(whereSeparator: \.isWhitespace)
        offset = end + 1
        guard words.count >= vertex.properties.count else {
          throw fail(lineNumber, "expected \(vertex.properties.count) values")
        }
        func value(_ i: Int) throws(PoseError) -> Double {
          guard let d = Double(words[i]), d.isFinite else {
            throw fail(lineNumber, "\(names[i]) '\(words[i])' is not a finite number")
          }
          return d
        }
        points.append(SIMD3(try value(ix), try value(iy), try value(iz)))
        if let ic { confidences.append(try value(ic)) }
      }
    case "binary_little_endian", "binary_big_endian":
      let little = format == "binary_little_endian"
      guard vertex.properties.allSatisfy({ !$0.type.hasPrefix("list") }) else {
        throw fail(0, "list properties in vertex")
      }
      let sizes = vertex.properties.map { Self.size(of: $0.type)! }
      let stride = sizes.reduce(0, +)
      var offsets: [Int] = []
      var running = 0
      for s in sizes {
        offsets.append(running)
        running += s
      }
      guard start + stride * vertex.count <= bytes.count else {
        throw fail(
          0,
          "truncated: \(vertex.count) vertices need \(stride * vertex.count) bytes, \(bytes.count - start) present"
        )
      }
      func value(_ v: Int, _ p: Int) throws(PoseError) -> Double {
        let at = start + v * stride + offsets[p]
        var raw: UInt64 = 0
        let n = sizes[p]
        for i in 0..<n {
          let byte = UInt64(bytes[at + (little ? i : n - 1 - i)])
          raw |= byte << (8 * UInt64(i))
        }
        let d: Double
        switch vertex.properties[p].type {
        case "float", "float32": d = Double(Float(bitPattern: UInt32(raw)))
        case "double", "float64": d = Double(bitPattern: raw)
        case "char", "int8": d = Double(Int8(bitPattern: UInt8(raw)))
        case "uchar", "uint8": d = Double(raw)
        case "short", "int16": d = Double(Int16(bitPattern: UInt16(raw)))
        case "ushort", "uint16": d = Double(raw)
        case "int", "int32": d = Double(Int32(bitPattern: UInt32(raw)))
        default: d = Double(raw)
        }
        guard d.isFinite else { throw fail(0, "vertex \(v): \(names[p]) is not finite") }
        return d
      }
      for v in 0..<vertex.count {
        points.append(SIMD3(try value(v, ix), try value(v, iy), try value(v, iz)))
        if let ic { confidences.append(try value(v, ic)) }
      }
    default:
      throw fail(0, "unknown format '\(format)'")
    }
    return PointCloud(points: points, confidences: confidences)
  }
}

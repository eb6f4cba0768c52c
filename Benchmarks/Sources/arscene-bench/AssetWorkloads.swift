import ARImage
import ARImageIO
import ARMesh
import AssimpOracle
import Foundation
import LibPNGOracle
import TinyOBJOracle

/// OBJ parsing against tinyobjloader, GLB loading against assimp and our own OBJ path, PNG
/// against libpng's simplified API with its defaults.
func assetWorkloads(quick: Bool) -> [Row] {
  var rows: [Row] = []
  let grid = quick ? 60 : 900
  let path = benchOBJ(grid: grid)
  let bytes = [UInt8](FileManager.default.contents(atPath: path)!)
  let megabytes = Double(bytes.count) / 1e6
  var model = OBJModel()
  let label = String(
    format: "%.0f MB OBJ, %.2fM triangles", megabytes, Double(2 * (grid - 1) * (grid - 1)) / 1e6)
  var counts = (0, 0, 0, 0)
  rows.append(
    compare("parse \(label)", peer: "tinyobjloader", rounds: 5) {
      model = try! OBJReader.parse(bytes, path: path)
    } peerRun: {
      counts = tinyOBJ(bytes, triangulate: false)
    })
  precondition(counts.0 == model.positions.count && counts.3 == model.faceCount, "the two parsers disagree")
  var mesh = Mesh(positions: [], normals: [], indices: [])
  rows.append(
    compare("parse + triangulate \(label)", peer: "tinyobjloader", rounds: 5) {
      mesh = Mesh(obj: try! OBJReader.parse(bytes, path: path))
    } peerRun: {
      counts = tinyOBJ(bytes, triangulate: true)
    })
  precondition(counts.3 == mesh.triangleCount, "the two triangulations disagree")
  rows += glbWorkloads(objPath: path, objBytes: bytes, label: label)
  rows += modelWorkloads(quick: quick, obj: path, label: label)

  // PNG: a 4096² (quick: 256²) image with smooth shading and a little noise, like a render.
  let side = quick ? 256 : 4096
  let image = renderLikeImage(side: side)
  var encoded: [UInt8] = []
  var peerEncoded = [UInt8](repeating: 0, count: side * side * 5 + 1024)
  var peerSize = 0
  func peerEncode() {
    peerSize = image.pixels.withUnsafeBytes { raw in
      peerEncoded.withUnsafeMutableBufferPointer { out in
        libpng_oracle_encode_rgba8(
          raw.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt32(side), UInt32(side),
          out.baseAddress!, out.count)
      }
    }
  }
  rows.append(
    compare("PNG encode \(side)x\(side) RGBA8", peer: "libpng (simplified API)", rounds: 5) {
      encoded = try! PNG.encode(image)
    } peerRun: {
      peerEncode()
    })
  // (Rows left out by ARSCENE_BENCH_ONLY ran nothing: their checks are skipped.)
  precondition(peerSize > 0 || rows[rows.count - 1].ours_s.isNaN)
  // The same encoder at zlib level 2: the trade a renderer writing many frames may prefer.
  var fastSize = 0
  rows.append(
    compare("PNG encode \(side)x\(side) RGBA8, level 2", peer: "libpng (simplified API)", rounds: 5) {
      fastSize = try! PNG.encode(image, compression: 2).count
    } peerRun: {
      peerEncode()
    })
  pngSizes = (encoded.count, fastSize, peerSize)
  // A 720p camera frame, as arscene render --recording writes one per frame (the issue's goal:
  // ≤ 25 ms): opaque, so RGB, at the recording frames' level 1, against libpng's defaults.
  let frame = renderLikeImage(side: quick ? 256 : 1280, height: quick ? 144 : 720)
  var framePeer = [UInt8](repeating: 0, count: frame.width * frame.height * 5 + 1024)
  rows.append(
    compare(
      "PNG encode \(frame.width)x\(frame.height) camera frame, RGB level 1", peer: "libpng (simplified API)",
      rounds: 9
    ) {
      blackHole(try! PNG.encode(frame, channels: .rgb, compression: 1))
    } peerRun: {
      _ = frame.pixels.withUnsafeBytes { raw in
        framePeer.withUnsafeMutableBufferPointer { out in
          libpng_oracle_encode_rgba8(
            raw.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt32(frame.width), UInt32(frame.height),
            out.baseAddress!, out.count)
        }
      }
    })
  var decoded = RGBA8Image(width: 0, height: 0, pixels: [])
  var peerDecoded: [UInt8] = []
  let peerBytes = Array(peerEncoded.prefix(peerSize))
  rows.append(
    compare("PNG decode \(side)x\(side) RGBA8", peer: "libpng (simplified API)", rounds: 5) {
      decoded = try! PNG.decodeRGBA8(peerBytes)
    } peerRun: {
      // A fresh image each run, as ours returns: reusing one warm buffer would spare libpng the
      // page faults of a new 64 MB allocation that ours pays.
      peerDecoded = [UInt8](unsafeUninitializedCapacity: side * side * 4) { out, initialized in
        _ = peerBytes.withUnsafeBufferPointer { png in
          libpng_oracle_decode_rgba8(png.baseAddress!, png.count, out.baseAddress!, out.count)
        }
        initialized = out.count
      }
    })
  precondition(decoded == image || rows[rows.count - 1].ours_s.isNaN, "PNG round trip differs")
  blackHole((encoded.count, peerDecoded.count))
  return rows
}

/// The OBJ height field written as a GLB by ARScene's writer (positions, normals, texture
/// coordinates, 32-bit indices), loaded from memory: ours (`GLTFAsset`: parse and build the
/// renderable mesh) against assimp's import with no post-processing, and against our own OBJ
/// path (parse and triangulate) for the same mesh.
func glbWorkloads(objPath: String, objBytes: [UInt8], label: String) -> [Row] {
  let glbPath = objPath.replacingOccurrences(of: ".obj", with: ".glb")
  if !FileManager.default.fileExists(atPath: glbPath) {
    let asset = try! ModelAsset.load(path: objPath)
    try! Data(try! GLTFWriter(asset).glb()).write(to: URL(fileURLWithPath: glbPath))
  }
  let glb = [UInt8](FileManager.default.contents(atPath: glbPath)!)
  var rows: [Row] = []
  var triangles = 0
  var peer = (vertices: 0, faces: 0)
  let name = "GLB load, \(glb.count >> 20) MB, the \(label.split(separator: ", ").last ?? "")"
  rows.append(
    compare(name, peer: "assimp 5.2 (no post-processing)", rounds: 5) {
      triangles = try! GLTFAsset(bytes: glb, path: glbPath).mesh.triangleCount
    } peerRun: {
      peer = assimpImport(glb, hint: "glb")
    })
  // (A row left out by ARSCENE_BENCH_ONLY, or a peer not run, has nothing to compare.)
  precondition(
    rows[0].ours_s.isNaN || peer.faces == 0 || triangles == peer.faces, "GLB: ours and assimp disagree")
  rows.append(
    compare(
      name + ", against our OBJ path for the same mesh", peer: "ARScene OBJ parse + triangulate", rounds: 5
    ) {
      triangles = try! GLTFAsset(bytes: glb, path: glbPath).mesh.triangleCount
    } peerRun: {
      blackHole(Mesh(obj: try! OBJReader.parse(objBytes, path: objPath)).triangleCount)
    })
  return rows
}

func assimpImport(_ bytes: [UInt8], hint: String) -> (vertices: Int, faces: Int) {
  var vertices = 0, faces = 0
  let ok = bytes.withUnsafeBufferPointer { b in
    assimp_oracle_import(b.baseAddress!, b.count, hint, &vertices, &faces)
  }
  precondition(ok == 1, "assimp failed to import the \(hint)")
  return (vertices, faces)
}

/// Encoded sizes of the last PNG run (ours at level 6, ours at level 2, libpng's default), for
/// the report.
nonisolated(unsafe) var pngSizes = (0, 0, 0)

func tinyOBJ(_ bytes: [UInt8], triangulate: Bool) -> (Int, Int, Int, Int) {
  var p = 0, t = 0, n = 0, f = 0
  let ok = bytes.withUnsafeBufferPointer { b in
    b.withMemoryRebound(to: CChar.self) { c in
      tinyobj_oracle_parse(c.baseAddress!, c.count, triangulate ? 1 : 0, &p, &t, &n, &f)
    }
  }
  precondition(ok == 1, "tinyobjloader failed")
  return (p, t, n, f)
}

/// A `grid × grid` height field as OBJ with positions, texture coordinates, normals and quads
/// `v/vt/vn`, numbers with six decimals as exporters write them; made once and kept in .build.
func benchOBJ(grid: Int) -> String {
  let directory = ".build/bench-data"
  let path = "\(directory)/heightfield-\(grid).obj"
  if FileManager.default.fileExists(atPath: path) { return path }
  try! FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  var text = "# Generated by arscene-bench: a \(grid)x\(grid) height field\n"
  text.reserveCapacity(grid * grid * 150)
  func f(_ x: Double) -> String { String(format: "%.6f", x) }
  for j in 0..<grid {
    for i in 0..<grid {
      let (x, z) = (Double(i) / Double(grid) * 100, Double(j) / Double(grid) * 100)
      let y = sin(x * 0.3) * cos(z * 0.2) * 2
      text += "v \(f(x)) \(f(y)) \(f(z))\n"
    }
  }
  for j in 0..<grid {
    for i in 0..<grid { text += "vt \(f(Double(i) / Double(grid - 1))) \(f(Double(j) / Double(grid - 1)))\n" }
  }
  for j in 0..<grid {
    for i in 0..<grid {
      let (x, z) = (Double(i) / Double(grid) * 100, Double(j) / Double(grid) * 100)
      let n = SIMD3(-0.6 * cos(x * 0.3) * cos(z * 0.2), 1, 0.4 * sin(x * 0.3) * sin(z * 0.2))
      let l = (n * n).sum().squareRoot()
      text += "vn \(f(n.x / l)) \(f(n.y / l)) \(f(n.z / l))\n"
    }
  }
  text += "o heightfield\ng terrain\ns 1\n"
  for j in 0..<(grid - 1) {
    for i in 0..<(grid - 1) {
      let a = j * grid + i + 1, b = a + 1, c = a + grid + 1, d = a + grid
      text += "f \(a)/\(a)/\(a) \(b)/\(b)/\(b) \(c)/\(c)/\(c) \(d)/\(d)/\(d)\n"
    }
  }
  try! Data(text.utf8).write(to: URL(fileURLWithPath: path))
  return path
}

func renderLikeImage(side: Int, height: Int? = nil) -> RGBA8Image {
  var state: UInt32 = 12345
  let rows = height ?? side
  var pixels = [SIMD4<UInt8>](repeating: .zero, count: side * rows)
  for y in 0..<rows {
    for x in 0..<side {
      state = state &* 1_664_525 &+ 1_013_904_223
      let noise = Int(state >> 29)  // 0…7
      let fx = Double(x) / Double(side), fy = Double(y) / Double(side)
      let shade = 0.5 + 0.5 * sin(fx * 9) * cos(fy * 7)
      let r = Int(shade * 200) + noise, g = Int(fy * 180) + noise, b = Int((1 - fx) * 220) + noise
      pixels[y * side + x] = SIMD4(UInt8(min(r, 255)), UInt8(min(g, 255)), UInt8(min(b, 255)), 255)
    }
  }
  return RGBA8Image(width: side, height: rows, pixels: pixels)
}

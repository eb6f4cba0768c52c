import ARFiles
import ARMath
import Foundation

/// A glTF asset's document and binary buffers, from a `.gltf` (JSON, buffers in files beside it
/// or in `data:` URIs) or a `.glb` (a JSON chunk and an optional binary chunk, the buffer
/// without a URI).
struct GLTFContainer: Sendable {
  let path: String
  let document: GLTFDocument
  /// Each buffer's bytes, at least its declared `byteLength` (none for a meshopt fallback): a
  /// GLB's binary chunk is a slice of the file's bytes, not a copy. Slices keep their parent's
  /// indices: offset them by `startIndex`, or read them through `withUnsafeBytes`.
  let buffers: [ArraySlice<UInt8>]
  /// The decoded bytes of compressed buffer views, by view index.
  let decodedViews: [Int: [UInt8]]
  /// Whether the asset came as a GLB.
  let isBinary: Bool

  /// The GLB magic, `glTF` little-endian.
  static let glbMagic: [UInt8] = Array("glTF".utf8)

  /// The asset in `bytes`, read from `path` (buffer files are found relative to it).
  init(bytes: [UInt8], path: String) throws(GLTFError) {
    self.path = path
    var json: ArraySlice<UInt8>
    var binaryChunk: ArraySlice<UInt8>?
    if bytes.starts(with: Self.glbMagic) {
      (json, binaryChunk) = try Self.glbChunks(bytes, path: path)
      isBinary = true
    } else {
      json = TextBytes.droppingUTF8BOM(bytes)
      isBinary = false
    }
    do {
      document = try JSONDecoder().decode(GLTFDocument.self, from: Data(json))
    } catch {
      let failure = JSONDecodingFailure(error, bytes: Array(json))
      throw GLTFError(path: path, pointer: Self.pointer(failure.field), reason: failure.reason)
    }
    guard document.asset.version.hasPrefix("2.") else {
      throw GLTFError(
        path: path, pointer: "/asset/version",
        reason: "'\(document.asset.version.quotedForMessage)' is not glTF 2 (ARScene reads glTF 2.0)")
    }
    for (i, name) in (document.extensionsRequired ?? []).enumerated()
    where !GLTFAsset.understoodNow.contains(name) {
      throw GLTFError(
        path: path, pointer: "/extensionsRequired/\(i)",
        reason: "\(name) is required and ARScene does not support it")
    }
    buffers = try Self.loadBuffers(document, binaryChunk: binaryChunk, path: path)
    decodedViews = try Self.decodeViews(document, buffers: buffers, path: path)
  }

  /// Every meshopt-compressed buffer view decoded, by the registered decoder.
  static func decodeViews(_ document: GLTFDocument, buffers: [ArraySlice<UInt8>], path: String)
    throws(GLTFError)
    -> [Int: [UInt8]]
  {
    var decoded: [Int: [UInt8]] = [:]
    for (i, view) in (document.bufferViews ?? []).enumerated() {
      guard let m = view.extensions?.meshopt ?? view.extensions?.khrMeshopt else { continue }
      let pointer = "/bufferViews/\(i)/extensions/EXT_meshopt_compression"
      guard let decoder = GLTFCompression.meshopt else {
        throw GLTFError(
          path: path, pointer: pointer, reason: "meshopt-compressed, and no meshopt decoder is registered")
      }
      let start = m.byteOffset ?? 0
      guard buffers.indices.contains(m.buffer), start >= 0, m.byteLength >= 0,
        start <= buffers[m.buffer].count,
        m.byteLength <= buffers[m.buffer].count - start
      else {
        throw GLTFError(
          path: path, pointer: pointer, reason: "the compressed bytes run past buffer \(m.buffer)")
      }
      let request = GLTFCompression.MeshoptView(
        source: Array(buffers[m.buffer].dropFirst(start).prefix(m.byteLength)), count: m.count,
        stride: m.byteStride,
        mode: m.mode, filter: m.filter ?? "NONE")
      do { decoded[i] = try decoder(request) } catch {
        throw GLTFError(path: path, pointer: pointer, reason: "\(error)")
      }
      guard decoded[i]!.count >= view.byteLength else {
        throw GLTFError(
          path: path, pointer: "/bufferViews/\(i)/byteLength",
          reason: "\(view.byteLength) bytes, the compressed view decodes to \(decoded[i]!.count)")
      }
    }
    return decoded
  }

  /// The whole of buffer view `view` (an image, a Draco mesh), checked against its buffer;
  /// `pointer` names where the view was asked for.
  func viewBytes(_ view: Int, at pointer: String) throws(GLTFError) -> [UInt8] {
    guard let v = document.bufferViews?[safe: view], let buffer = buffers[safe: v.buffer] else {
      throw GLTFError(
        path: path, pointer: pointer, reason: "buffer view \(view) or its buffer does not exist")
    }
    let start = v.byteOffset ?? 0
    guard start >= 0, v.byteLength >= 0, start <= buffer.count, v.byteLength <= buffer.count - start else {
      throw GLTFError(path: path, pointer: "/bufferViews/\(view)", reason: "runs past its buffer")
    }
    return Array(buffer.dropFirst(start).prefix(v.byteLength))
  }

  /// `objects[2].model`-style field paths as JSON pointers (`/objects/2/model`); a line and
  /// column are kept as they are.
  static func pointer(_ field: String?) -> String {
    guard let field, !field.hasPrefix("line ") else { return field ?? "" }
    var out = ""
    for part in field.split(separator: ".", omittingEmptySubsequences: false) {
      var rest = Substring(part)
      if let bracket = rest.firstIndex(of: "[") {
        out += "/" + rest[..<bracket]
        rest = rest[bracket...]
        while rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
          out += "/" + rest[rest.index(after: rest.startIndex)..<close]
          rest = rest[rest.index(after: close)...]
        }
      } else {
        out += "/" + rest
      }
    }
    return out
  }

  /// A GLB's JSON chunk and its binary chunk, checked: version 2, the declared length, chunks
  /// that fit, 4-byte aligned.
  static func glbChunks(_ bytes: [UInt8], path: String) throws(GLTFError) -> (
    ArraySlice<UInt8>, ArraySlice<UInt8>?
  ) {
    func word(_ at: Int) -> UInt32 {
      UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3])
        << 24
    }
    guard bytes.count >= 20 else {
      throw GLTFError(path: path, pointer: "GLB header", reason: "\(bytes.count) bytes: truncated")
    }
    guard word(4) == 2 else {
      throw GLTFError(path: path, pointer: "GLB header", reason: "version \(word(4)), not 2")
    }
    let length = Int(word(8))
    guard length <= bytes.count else {
      throw GLTFError(
        path: path, pointer: "GLB header",
        reason: "declares \(length) bytes, the file has \(bytes.count): truncated")
    }
    var offset = 12, chunk = 0
    var json: ArraySlice<UInt8>?, binary: ArraySlice<UInt8>?
    while offset + 8 <= length {
      let size = Int(word(offset)), type = word(offset + 4)
      let start = offset + 8
      guard size <= length - start else {
        throw GLTFError(
          path: path, pointer: "GLB chunk \(chunk)",
          reason: "\(size) bytes from byte \(start) run past the file's \(length): truncated")
      }
      switch (chunk, type) {
      case (0, 0x4E4F_534A): json = bytes[start..<start + size]  // "JSON"
      case (0, _): throw GLTFError(path: path, pointer: "GLB chunk 0", reason: "not the JSON chunk")
      case (1, 0x004E_4942): binary = bytes[start..<start + size]  // "BIN\0"
      default: break  // chunks of unknown types are skipped, as the specification asks
      }
      offset = start + (size + 3) / 4 * 4
      chunk += 1
    }
    guard let json else { throw GLTFError(path: path, pointer: "GLB chunk 0", reason: "missing: no JSON") }
    return (json, binary)
  }

  /// Every buffer's bytes: the GLB's binary chunk, a `data:` URI's base64, or a file beside
  /// the asset; each at least its `byteLength`.
  static func loadBuffers(_ document: GLTFDocument, binaryChunk: ArraySlice<UInt8>?, path: String)
    throws(GLTFError) -> [ArraySlice<UInt8>]
  {
    var buffers: [ArraySlice<UInt8>] = []
    for (i, buffer) in (document.buffers ?? []).enumerated() {
      let pointer = "/buffers/\(i)"
      guard buffer.byteLength >= 0 else {
        throw GLTFError(
          path: path, pointer: pointer + "/byteLength", reason: "\(buffer.byteLength) is negative")
      }
      let bytes: ArraySlice<UInt8>
      if buffer.uri == nil, buffer.extensions?.isFallback == true, !(i == 0 && binaryChunk != nil) {
        buffers.append([])  // stands in for compressed views, decoded from another buffer
        continue
      }
      if let uri = buffer.uri {
        bytes = ArraySlice(
          try GLTFURI.bytes(uri, relativeTo: path, pointer: pointer + "/uri", assetPath: path))
      } else if i == 0, let binaryChunk {
        bytes = binaryChunk
      } else {
        throw GLTFError(path: path, pointer: pointer, reason: "no uri and no GLB binary chunk for it")
      }
      guard bytes.count >= buffer.byteLength else {
        throw GLTFError(
          path: path, pointer: pointer + "/byteLength",
          reason: "\(buffer.byteLength) bytes declared, \(bytes.count) found")
      }
      buffers.append(bytes)
    }
    return buffers
  }
}

import ARFiles
import ARImage
import ARMath
import Foundation

/// A film stock as data: a preset file naming its stages in order, with their parameters.
///
/// ```json
/// {"name": "Kodak Gold 200", "description": "…", "kind": "colour",
///  "stages": [{"white_balance": {"temperature_k": 5600}}, {"tone_curve": {"black": 0.05}},
///             {"grain": {"iso": 200}}]}
/// ```
///
/// Each entry of `stages` is an object with one key, the stage's (``stageTypes``), whose value
/// holds its parameters. Adding a stock is adding a file: the shipped ones are in the module's
/// `Presets` folder (``shipped``); any other file can be read by its path.
public struct FilmLook: Sendable {
  /// The preset's name (what `--preset` takes for a shipped one).
  public var name: String
  /// One sentence on the look, for people.
  public var description: String
  /// `colour` or `black-and-white`.
  public var kind: String
  /// The stages, applied in this order.
  public var stages: [any FilmStage]

  /// Every stage a preset can name, by key.
  public static let stageTypes: [any FilmStage.Type] = [
    WhiteBalance.self, ColourMatrix.self, ToneCurve.self, ShadowsHighlights.self, SplitToning.self,
    BlackAndWhite.self, LUTStage.self, BilateralBlur.self, Soften.self, Halation.self, Vignette.self,
    LightLeak.self,
    FilmGrain.self,
  ]

  /// A look of `stages`, applied in order.
  public init(name: String, description: String = "", kind: String = "colour", stages: [any FilmStage]) {
    self.name = name
    self.description = description
    self.kind = kind
    self.stages = stages
  }

  /// Reads a preset file.
  /// - Throws: ``FilmError`` naming the file and the field (`stages[2].grain.iso`): malformed
  ///   JSON, an unknown stage or parameter, a parameter outside its range, a LUT file's fault.
  public init(path: String) throws(FilmError) {
    let data: Data
    do { data = Data(try FileIO.read(path)) } catch {
      throw .unreadable(path: path, reason: error.reason)
    }
    let root: FilmParameters.JSONValue
    do { root = try JSONDecoder().decode(FilmParameters.JSONValue.self, from: data) } catch {
      throw .invalidFile(path: path, line: 0, field: "JSON", reason: "not valid JSON (\(error))")
    }
    guard case .object(let top) = root else {
      throw .invalidFile(path: path, line: 0, field: "(top)", reason: "expected an object")
    }
    let preset = FilmParameters(path: path, field: "", values: top)
    for key in top.keys.sorted() where !["name", "description", "kind", "stages"].contains(key) {
      throw .invalidFile(
        path: path, line: 0, field: key, reason: "unknown member (known: name, description, kind, stages)")
    }
    guard case .string(let name)? = top["name"] else {
      throw .invalidFile(path: path, line: 0, field: "name", reason: "expected a string")
    }
    let kind = try preset.choice("kind", ["colour", "black-and-white"], default: "colour")
    guard case .array(let entries)? = top["stages"] else {
      throw .invalidFile(path: path, line: 0, field: "stages", reason: "expected a list of stages")
    }
    var stages: [any FilmStage] = []
    for (k, entry) in entries.enumerated() {
      let field = "stages[\(k)]"
      guard case .object(let object) = entry, object.count == 1, let (key, value) = object.first else {
        throw .invalidFile(
          path: path, line: 0, field: field, reason: "expected an object with one stage's key")
      }
      guard let type = Self.stageTypes.first(where: { $0.key == key }) else {
        throw .invalidFile(
          path: path, line: 0, field: field + "." + key,
          reason: "unknown stage (known: \(Self.stageTypes.map { $0.key }.joined(separator: ", ")))")
      }
      guard case .object(let parameters) = value else {
        throw .invalidFile(
          path: path, line: 0, field: field + "." + key, reason: "expected an object of parameters")
      }
      stages.append(try type.init(FilmParameters(path: path, field: field + "." + key, values: parameters)))
    }
    var description = ""
    if case .string(let d)? = top["description"] { description = d }
    self.init(name: name, description: description, kind: kind, stages: stages)
  }

  /// The folder of the shipped presets.
  public static var presetFolder: String { Bundle.module.resourcePath! + "/Presets" }

  /// The shipped presets' names (their files' names without `.json`), sorted.
  public static var shipped: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: presetFolder)) ?? [])
      .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
  }

  /// A shipped preset by name, or a preset file by path (anything with a `/` or ending `.json`).
  public init(named nameOrPath: String) throws(FilmError) {
    if nameOrPath.contains("/") || nameOrPath.hasSuffix(".json") {
      try self.init(path: nameOrPath)
    } else {
      guard Self.shipped.contains(nameOrPath) else { throw .unknownPreset(nameOrPath, known: Self.shipped) }
      try self.init(path: Self.presetFolder + "/" + nameOrPath + ".json")
    }
  }

  /// Every stage made ready for an image of this size, the ones that change nothing left out.
  public func steps(width: Int, height: Int, context: FilmContext) -> [FilmStep] {
    stages.compactMap { $0.step(width: width, height: height, context: context) }
  }

  /// The look applied to a linear image. The image streams through the stages row by row
  /// (``FilmStep``), every stage working on a row while it is in the cache.
  public func apply(to image: inout LinearImage, context: FilmContext) {
    let (width, height) = (image.width, image.height)
    let steps = steps(width: width, height: height, context: context)
    guard !steps.isEmpty, width > 0, height > 0 else { return }
    let count = image.pixels.count
    let result = [SIMD4<Float>](unsafeUninitializedCapacity: count) { out, initialized in
      let target = UnsafeSendableMutablePointer(out.baseAddress!)
      image.pixels.withUnsafeBufferPointer { input in
        let s = UnsafeSendablePointer(input.baseAddress!)
        FilmPipeline.run(
          steps: steps, width: width, height: height, threads: context.threads,
          source: { y, row in
            for x in 0..<width { row[x] = s.pointer[y * width + x] }
          },
          sink: { y, row in
            for x in 0..<width { target.pointer[y * width + x] = row[x] }
          })
      }
      initialized = count
    }
    image.pixels = result
  }

  /// The look applied to an 8-bit sRGB image: decoded to linear light row by row as it
  /// streams through the stages, and encoded back (each value to the nearest 8-bit code, as
  /// ARImage's `sRGB8` encodes).
  public func apply(to image: RGBA8Image, context: FilmContext) -> RGBA8Image {
    let (width, height) = (image.width, image.height)
    let steps = steps(width: width, height: height, context: context)
    guard !steps.isEmpty, width > 0, height > 0 else { return image }
    let count = image.pixels.count
    let encoder = SRGB.Encoder.shared
    let pixels = [SIMD4<UInt8>](unsafeUninitializedCapacity: count) { out, initialized in
      let target = UnsafeSendableMutablePointer(out.baseAddress!)
      image.pixels.withUnsafeBufferPointer { input in
        let s = UnsafeSendablePointer(input.baseAddress!)
        SRGB.decodeTable.withUnsafeBufferPointer { table in
          let t = UnsafeSendablePointer(table.baseAddress!)
          FilmPipeline.run(
            steps: steps, width: width, height: height, threads: context.threads,
            source: { y, row in
              let line = s.pointer + y * width
              // Four pixels at a time, each plane's four values stored whole.
              var x = 0
              while x &+ 4 <= width {
                let (p0, p1, p2, p3) = (line[x], line[x &+ 1], line[x &+ 2], line[x &+ 3])
                @inline(__always) func decoded(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> SIMD4<Float>
                {
                  SIMD4(t.pointer[Int(a)], t.pointer[Int(b)], t.pointer[Int(c)], t.pointer[Int(d)])
                }
                storeFour(decoded(p0.x, p1.x, p2.x, p3.x), row.red, x)
                storeFour(decoded(p0.y, p1.y, p2.y, p3.y), row.green, x)
                storeFour(decoded(p0.z, p1.z, p2.z, p3.z), row.blue, x)
                let alpha = SIMD4<Int32>(Int32(p0.w), Int32(p1.w), Int32(p2.w), Int32(p3.w))
                storeFour(LaneMath.float(alpha) * (1 / 255), row.alpha, x)
                x &+= 4
              }
              for x in x..<width {
                let p = line[x]
                row.red[x] = t.pointer[Int(p.x)]
                row.green[x] = t.pointer[Int(p.y)]
                row.blue[x] = t.pointer[Int(p.z)]
                row.alpha[x] = Float(p.w) * (1 / 255)
              }
            },
            sink: { y, row in
              let line = UnsafeMutableRawPointer(target.pointer + y * width)
              // Four pixels at a time: each channel's four codes at once, packed into four
              // pixels' bytes (red lowest), stored whole but for the row's last few.
              var x = 0
              while x < width {
                let packed = Self.encode(FourPixels(row, x), encoder)
                if x + 4 <= width {
                  line.storeBytes(of: packed, toByteOffset: 4 * x, as: SIMD4<Int32>.self)
                } else {
                  for j in 0..<(width - x) {
                    line.storeBytes(of: packed[j], toByteOffset: 4 * (x + j), as: Int32.self)
                  }
                }
                x += 4
              }
            })
        }
      }
      initialized = count
    }
    return RGBA8Image(width: width, height: height, pixels: pixels)
  }

  /// Four linear pixels' 8-bit codes, as ARImage's `sRGB8` gives them, each pixel's four bytes
  /// in one lane (red lowest).
  @inline(__always)
  static func encode(_ four: FourPixels, _ encoder: SRGB.Encoder) -> SIMD4<Int32> {
    let red = encoder.codes(unit: LaneMath.unitClamped(four.red))
    let green = encoder.codes(unit: LaneMath.unitClamped(four.green))
    let blue = encoder.codes(unit: LaneMath.unitClamped(four.blue))
    // Alpha scaled and rounded to the nearest code (halves up: it is never negative).
    let alpha = LaneMath.truncated(LaneMath.unitClamped(four.alpha) * 255 + 0.5)
    return red | LaneMath.shiftedLeft(green, 8) | LaneMath.shiftedLeft(blue, 16)
      | LaneMath.shiftedLeft(alpha, 24)
  }
}

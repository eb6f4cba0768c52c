import ARImage
import ARSnapshotTesting
import ARTapTesting
import Foundation
import SnapshotTesting

extension Diffing where Value == RGBA8Image {
  /// Images stored as PNGs (``PortablePNG``: no image library) and compared under `gates`: on a
  /// difference the message gives the figures, and the difference image is attached.
  public static func arImage(gates: SnapshotGates = .standard) -> Diffing {
    .diff(
      toData: { Data(PortablePNG.encode($0)) },
      fromData: { data in
        // A reference that cannot be read compares as a 1×1 image: its failure says the sizes
        // differ, and recording it again replaces it.
        (try? PortablePNG.decode([UInt8](data), path: "reference"))
          ?? RGBA8Image(width: 1, height: 1, pixels: [SIMD4(255, 0, 255, 255)])
      },
      diffV2: { reference, actual in
        let difference = SnapshotDifference(actual, against: reference, gates: gates)
        guard !difference.matches else { return nil }
        let image = SnapshotDifference.image(actual, against: reference, gates: gates)
        return (
          "the AR view differs from its reference: \(difference.summary)",
          [.data(Data(PortablePNG.encode(image)), name: "difference.png")]
        )
      })
  }
}

extension Snapshotting where Value == RGBA8Image, Format == RGBA8Image {
  /// An image (a rendered view, a frame) as a PNG reference, compared under `gates`.
  public static func arImage(gates: SnapshotGates = .standard) -> Snapshotting {
    Snapshotting(pathExtension: "png", diffing: .arImage(gates: gates))
  }
}

extension Snapshotting where Value == PhoneView, Format == RGBA8Image {
  /// What the phone shows (``PhoneView/snapshot(_:)`` with `options`), as a PNG reference
  /// compared under `gates` (by default 5/255 on at most 0.01% of the pixels). The same on every
  /// machine: rendered on the CPU, the same bytes on any thread count.
  ///
  /// ```swift
  /// assertSnapshot(of: try hand.phone(aimedAt: "LI4", from: 0.30), as: .arView(SnapshotOptions(highlighting: ["LI4"])))
  /// ```
  public static func arView(_ options: SnapshotOptions = SnapshotOptions(), gates: SnapshotGates = .standard)
    -> Snapshotting
  {
    Snapshotting<RGBA8Image, RGBA8Image>.arImage(gates: gates).pullback { phone in
      do { return try phone.snapshot(options) } catch {
        // A strategy cannot throw: the reason goes to standard error, and the view compares as
        // one empty pixel, which fails against any reference.
        FileHandle.standardError.write(Data("ARSnapshotStrategy: \(error)\n".utf8))
        return RGBA8Image(width: 1, height: 1, pixels: [.zero])
      }
    }
  }
}

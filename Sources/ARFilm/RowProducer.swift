import ARImage
import ARMath
import Foundation

/// One segment of a streamed look on one thread: rows made in order (from the source or from
/// the upstream segment's window), kept in a ring as long as the next segment may read them.
final class RowProducer {
  let width: Int, height: Int, capacity: Int, planes: Int
  let neighbourhood: FilmNeighbourhood?
  let kernels: [FilmKernel]
  let upstream: RowProducer?
  let source: FilmPipeline.Source
  let derive: FilmRowValues?
  /// `capacity` rows of four planes, then their derived planes.
  let storage: UnsafeMutablePointer<Float>
  let planeStorage: UnsafeMutablePointer<Float>?
  let window: UnsafeMutablePointer<FilmRow>
  let windowPlanes: UnsafeMutablePointer<UnsafePointer<Float>>
  /// The last row made; nil before the first.
  var newest: Int?

  init(
    width: Int, height: Int, capacity: Int, planes: Int, derive: FilmRowValues?,
    neighbourhood: FilmNeighbourhood?, kernels: [FilmKernel], upstream: RowProducer?,
    source: @escaping FilmPipeline.Source
  ) {
    self.width = width
    self.height = height
    self.capacity = capacity
    self.planes = planes
    self.derive = derive
    self.neighbourhood = neighbourhood
    self.kernels = kernels
    self.upstream = upstream
    self.source = source
    let padded = FilmRow.padded(width)
    storage = .allocate(capacity: capacity * 4 * padded)
    storage.initialize(repeating: 0, count: capacity * 4 * padded)
    planeStorage = derive == nil ? nil : .allocate(capacity: capacity * planes * padded)
    planeStorage?.initialize(repeating: 0, count: capacity * planes * padded)
    let side = 2 * (neighbourhood?.reach ?? 0) + 1
    window = .allocate(capacity: side)
    windowPlanes = .allocate(capacity: side)
  }

  deinit {
    storage.deallocate()
    planeStorage?.deallocate()
    window.deallocate()
    windowPlanes.deallocate()
  }

  /// Row `y`, made (with every row before it since the last) if not yet made. Rows are asked
  /// for in increasing order, never one older than the ring holds.
  func row(_ y: Int) -> FilmRow {
    var next = newest.map { $0 + 1 } ?? y
    while next <= y {
      make(next)
      newest = next
      next += 1
    }
    return slot(y)
  }

  private func slot(_ y: Int) -> FilmRow {
    FilmRow(storage: storage + (y % capacity) * 4 * FilmRow.padded(width), width: width)
  }

  /// The derived planes of row `y`, made with it.
  func derived(_ y: Int) -> UnsafePointer<Float> {
    UnsafePointer(planeStorage! + (y % capacity) * planes * FilmRow.padded(width))
  }

  private func make(_ y: Int) {
    let out = slot(y)
    if let neighbourhood, let upstream {
      let r = neighbourhood.reach
      // The window's first row, then its last: every row between is made, and the ring
      // keeps all 2r + 1.
      _ = upstream.row(max(y - r, 0))
      _ = upstream.row(min(y + r, height - 1))
      for dy in -r...r {
        let source = min(max(y + dy, 0), height - 1)
        window[dy + r] = upstream.row(source)
        if neighbourhood.derive != nil { windowPlanes[dy + r] = upstream.derived(source) }
      }
      neighbourhood.filter(
        FilmWindow(
          rows: UnsafePointer(window),
          derived: neighbourhood.derive == nil ? nil : UnsafePointer(windowPlanes),
          width: width, reach: r), out, y)
    } else {
      source(y, out)
      out.pad()
    }
    for kernel in kernels { kernel(out, y) }
    if let derive, let planeStorage {
      derive(out, planeStorage + (y % capacity) * planes * FilmRow.padded(width))
    }
  }
}

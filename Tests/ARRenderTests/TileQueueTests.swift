import ARTestSupport
import Dispatch
import Synchronization
import Testing

@testable import ARRender

/// How the tile queue hands out a frame's tiles.
@Suite("Tile queue")
struct TileQueueTests {
  @Test("one worker gets whole rows, busiest first, each left to right")
  func oneWorker() {
    let queue = TileQueue(tilesPerRow: 3, rowWork: [5, 9, 0, 9])
    var claim = TileQueue.Claim()
    var order: [Int] = []
    while let tile = queue.next(&claim) { order.append(tile) }
    // Rows 1 and 3 tie (the lower first), then 0, then 2.
    #expect(order == [3, 4, 5, 9, 10, 11, 0, 1, 2, 6, 7, 8])
  }

  @Test("a worker out of rows helps the row with the most tiles left, from its far end")
  func helping() {
    let queue = TileQueue(tilesPerRow: 4, rowWork: [1, 2])
    var first = TileQueue.Claim(), second = TileQueue.Claim()
    #expect(queue.next(&first) == 4)  // the busier row, row 1
    #expect(queue.next(&second) == 0)  // row 0
    #expect(queue.next(&second) == 1)
    #expect(queue.next(&second) == 2)
    #expect(queue.next(&second) == 3)
    // Row 0 is done and no row is left to own: row 1's last tiles, from the right.
    #expect(queue.next(&second) == 7)
    #expect(queue.next(&first) == 5)
    #expect(queue.next(&second) == 6)
    #expect(queue.next(&first) == nil)
    #expect(queue.next(&second) == nil)
  }

  @Test("workers racing for tiles get every tile exactly once", arguments: [2, 3, 8])
  func everyTileOnce(workers: Int) {
    for (tilesPerRow, rows) in [(1, 1), (20, 12), (7, 31), (64, 3)] {
      let queue = TileQueue(tilesPerRow: tilesPerRow, rowWork: (0..<rows).map { ($0 * 7919) % 13 })
      let counts = Mutex([Int](repeating: 0, count: tilesPerRow * rows))
      DispatchQueue.concurrentPerform(iterations: workers) { _ in
        var claim = TileQueue.Claim()
        while let tile = queue.next(&claim) { counts.withLock { $0[tile] += 1 } }
      }
      let taken = counts.withLock { $0 }
      #expect(taken.allSatisfy { $0 == 1 }, "\(workers) workers, \(tilesPerRow) × \(rows) tiles")
    }
  }
}

@Suite("Render settings")
struct RenderSettingsTests {
  @Test("samples a pixel must be a square up to 64, threads within the limit")
  func samples() throws {
    #expect(try RenderSettings(samplesPerPixel: 16, threads: 2).supersampling == 4)
    for (samples, threads) in [(0, 2), (8, 2), (81, 2), (4, 0), (4, RenderSettings.maximumThreads + 1)] {
      expectError(RenderError.self, "invalidSettings") {
        try RenderSettings(samplesPerPixel: samples, threads: threads)
      }
    }
    expectError(RenderError.self, "invalidSettings") { try RenderCamera.validateClipPlanes(near: 0, far: 1) }
    expectError(RenderError.self, "invalidSettings") {
      try RenderCamera.validateClipPlanes(near: 1, far: .infinity)
    }
  }
}

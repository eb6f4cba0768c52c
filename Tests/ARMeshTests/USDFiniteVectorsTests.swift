import ARTestSupport
import Foundation
import Testing

@testable import ARMesh

/// A mesh's points that are not finite, in a binary layer: refused by name, where an array
/// nothing draws may hold anything; a crate's float arrays checked as they are decoded, which
/// spares the mesh's check a pass over its points (Tools/generate-usd-fixtures writes both
/// layers with usd-core).
@Suite("USD vectors that are not finite")
struct USDFiniteVectorsTests {
  @Test("an infinite point is refused, naming the mesh's points; a NaN in an attribute nothing draws is not")
  func refusedByName() throws {
    #expect {
      try ModelAsset.load(path: Fixtures.path("usd/non-finite-points.usdc"))
    } throws: { error in
      "\(error)".contains("/Bad.points") && "\(error)".contains("not finite")
    }
    let model = try ModelAsset.load(path: Fixtures.path("usd/unused-non-finite.usdc"))
    #expect(model.mesh.triangleCount == 3)
  }

  @Test(
    "a crate's float arrays stay in the file's bytes, each stored array once, and know whether they are finite"
  )
  func floatsKeptAndChecked() throws {
    let path = Fixtures.path("usd/unused-non-finite.usdc")
    let bytes = try #require(FileManager.default.contents(atPath: path))
    let layer = try USDLayer(crate: USDCrate(ArraySlice([UInt8](bytes)), path: path))
    guard case .vectors(let good)? = layer.values["/Good.points"],
      case .vectors(let twin)? = layer.values["/Twin.points"],
      case .vectors(let probe)? = layer.values["/Odd.userProperties:probe"],
      case .floats = good.storage, case .floats = probe.storage
    else {
      Issue.record("the fixture's arrays were not read as floats")
      return
    }
    // The twin's points are the same stored array.
    #expect(Vector3ArrayTests.address(good) == Vector3ArrayTests.address(twin) && good.allFinite)
    #expect(!probe.allFinite)
    // Changed (a copy, then, of doubles), the points are checked again.
    var changed = good
    changed.modifyDoubles { $0[0].x = .infinity }
    #expect(!changed.allFinite && good.allFinite)
  }
}

import ARTestSupport
import Foundation
import Testing

@testable import ARMesh

/// A mesh's points that are not finite, in a binary layer: refused by name, where an array
/// nothing draws may hold anything; and the layer's note of the arrays it found finite as it
/// decoded them, which spares the mesh's check a pass over its points, vouching for those
/// arrays alone (Tools/generate-usd-fixtures writes both layers with usd-core).
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

  @Test("a layer vouches for the arrays it decoded and found finite, and for no other, however alike")
  func vouchesForItsOwnArrays() throws {
    let path = Fixtures.path("usd/unused-non-finite.usdc")
    let bytes = try #require(FileManager.default.contents(atPath: path))
    let layer = try USDLayer(crate: USDCrate(ArraySlice([UInt8](bytes)), path: path))
    guard case .vectors(let good)? = layer.values["/Good.points"],
      case .vectors(let twin)? = layer.values["/Twin.points"],
      case .vectors(let probe)? = layer.values["/Odd.userProperties:probe"]
    else {
      Issue.record("the fixture's arrays were not read")
      return
    }
    // The twin's points are the same stored array, decoded once.
    #expect(layer.isKnownFinite(good) && layer.isKnownFinite(twin))
    #expect(!layer.isKnownFinite(probe) && !probe.allFinite)
    // An equal array made apart, and the points changed (a copy, then), are checked again.
    let alike = good.map { $0 }
    var changed = good
    changed[0].x = .infinity
    #expect(!layer.isKnownFinite(alike) && !layer.isKnownFinite(changed))
    #expect(layer.isKnownFinite(good))
  }
}

import ARHit
import ARTestSupport
import Testing

@Suite("Tap policies by name")
struct TapPolicyTests {
  @Test("names give the policies, with the library's defaults")
  func names() throws {
    #expect(try TapPolicy(name: "exact") == .exactSphere)
    #expect(try TapPolicy(name: "screen") == .standard)
    #expect(try TapPolicy(name: "screen", tolerance: 30) == .screenTolerance(points: 30))
    #expect(try TapPolicy(name: "mesh") == .meshProximity(factor: TapPolicy.standardMeshProximityFactor))
    #expect(TapPolicy.names.allSatisfy { (try? TapPolicy(name: $0)) != nil })
  }

  @Test(
    "an unknown name or a bad tolerance is refused",
    arguments: [("near", nil), ("screen", -1), ("mesh", .nan)] as [(String, Double?)])
  func refused(name: String, tolerance: Double?) {
    expectError(HitError.self, "invalidPolicy") { try TapPolicy(name: name, tolerance: tolerance) }
  }
}

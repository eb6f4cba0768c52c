import Testing

@testable import ARMesh

/// The byte search USD's paths and keys are scanned with, against the standard library's
/// character search.
@Suite("ASCII search in USD paths")
struct ASCIISearchTests {
  @Test(
    "the same ranges as a character search: after non-ASCII names, overlapping starts, at the ends, absent",
    arguments: [
      ("/Wörld/Ünïcode/{shape=sphere}/Mesh", "/{"), ("//{a=b}", "/{"), ("/{", "/{"), ("/A/B", "/{"),
      ("/Mesh.primvars:st", ".primvars:"), ("/Mesh.primvars", ".primvars:"),
      ("/Kürbis.primvars:normals", ".primvars:"),
      ("", "/{"), ("/é{", "/{"), ("..primvars:..primvars:x", ".primvars:"),
    ])
  func sameAsCharacters(_ text: String, _ needle: StaticString) {
    let expected = text.firstRange(of: "\(needle)")
    #expect(text.firstASCII(needle) == expected)
    #expect(text.containsASCII(needle) == (expected != nil))
    let tail = text.dropFirst()
    #expect(tail.firstASCII(needle) == tail.firstRange(of: "\(needle)"))
  }
}

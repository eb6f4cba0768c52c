import ARGeo
import ARImage
import ARMaps
import ARPlaces
import ARTestSupport
import Foundation
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// The site map: the stops where the local grid puts them, in SVG and in the image alike.
@Suite("Site map")
struct SiteMapTests {
  /// Counts elements by name while checking the document is well-formed.
  final class Counter: NSObject, XMLParserDelegate {
    var counts: [String: Int] = [:]
    var texts: [String] = []
    private var inText = false
    func parser(
      _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
      attributes: [String: String] = [:]
    ) {
      counts[element, default: 0] += 1
      inText = element == "text"
      if inText { texts.append("") }
    }
    func parser(_ parser: XMLParser, foundCharacters string: String) {
      if inText { texts[texts.count - 1] += string }
    }
    func parser(
      _ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?
    ) {
      inText = false
    }
  }

  @Test(
    "the Závist site: a numbered disc per stop in both outputs, where the grid puts it; paths, areas, fences, a scale bar"
  )
  func zavist() throws {
    let set = try PlaceSet.read(path: Fixtures.path("../../Scenes/data/zavist-site.geojson"))
    let map = SiteMap(places: set, fenceRadius: 15, width: 900, height: 700)
    let drawing = try map.drawing()
    let counter = Counter()
    let parser = XMLParser(data: Data(drawing.svg().utf8))
    parser.delegate = counter
    #expect(parser.parse(), "the SVG is not well-formed: \(String(describing: parser.parserError))")
    // The precinct and the north arrow.
    #expect(counter.counts["svg"] == 1 && counter.counts["polygon"]! >= 2)
    #expect(counter.counts["circle"] == 2 * set.places.count)  // a fence and a disc each
    #expect(
      counter.texts.contains("Main gate") && counter.texts.contains("13") && counter.texts.contains("N"))
    #expect(counter.texts.contains { $0.hasSuffix(" m") })  // the scale bar
    // The image: each stop's disc in the stop colour at its projected pixel (not under another).
    let image = drawing.image()
    let projection = try map.projection()
    for place in set.places.dropFirst(4) {
      let p = projection.pixel(place.coordinate)
      let c = image[Int(p.x + 6), Int(p.y - 6)]
      // The stop colour, linear (0.55, 0.05, 0.03), sRGB-encoded.
      #expect(
        c == SIMD4(SRGB.encode8(0.55), SRGB.encode8(0.05), SRGB.encode8(0.03), 255),
        "\(place.id) at \(p): \(c)")
    }
    // East is right and north up: Acropolis (stop 5) is south-east of the gate.
    let gate = projection.pixel(set.places[0].coordinate),
      acropolis = projection.pixel(set.places[4].coordinate)
    #expect(acropolis.x > gate.x && acropolis.y > gate.y)
    // The scale bar's step in metres spans its pixels at the map's scale.
    let step = try #require(counter.texts.first { $0.hasSuffix(" m") }.flatMap { Double($0.dropLast(2)) })
    #expect(step * projection.scale > 900 / 10 && step * projection.scale <= 900 / 5 + 1e-9)
  }
}

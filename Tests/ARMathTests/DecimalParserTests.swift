import ARMath
import ARTestSupport
import Foundation
import Testing

@Suite("Decimal parsing")
struct DecimalParserTests {
  func parse(_ text: String) -> Double? {
    let bytes = Array(text.utf8)
    return bytes.withUnsafeBufferPointer { b in
      DecimalParser.parse(b.baseAddress!, from: 0, to: b.count).flatMap {
        $0.next == b.count ? $0.value : nil
      }
    }
  }

  @Test("every format agrees bit for bit with the standard library's correctly rounded parse")
  func matchesStandardLibrary() {
    var rng = SplitMix64(seed: 601)
    for i in 0..<20_000 {
      let value = Double(
        sign: Bool.random(using: &rng) ? .minus : .plus,
        exponent: Int.random(in: -60...60, using: &rng),
        significand: Double.random(in: 1..<2, using: &rng))
      let decimals = Int.random(in: 0...17, using: &rng)
      for text in [
        "\(value)", String(format: "%.\(decimals)f", value), String(format: "%.\(decimals)e", value),
        String(format: "%.\(decimals)g", value),
      ] {
        #expect(parse(text)?.bitPattern == Double(text)?.bitPattern, "case \(i): \(text)")
      }
    }
    for text in [
      "0", "-0", "+1", ".5", "5.", "1e-3", "1E+3", "123456789012345678901234",
      "0.1000000000000000055511151231257827",
      "4.9406564584124654e-324", "1.7976931348623157e308", "00012.5000",
    ] {
      #expect(parse(text)?.bitPattern == Double(text)?.bitPattern, "\(text)")
    }
  }

  @Test("17 to 19 digits with exponents up to ±30 (the 128-bit path) agree bit for bit, ties included")
  func wideDigitsMatchStandardLibrary() {
    var rng = SplitMix64(seed: 602)
    for i in 0..<100_000 {
      let digits = Int.random(in: 15...19, using: &rng)
      var text = String(UInt64.random(in: 1...9, using: &rng))
      for _ in 1..<digits { text += String(UInt64.random(in: 0...9, using: &rng)) }
      let exponent = Int.random(in: -30...30, using: &rng)
      let point = Int.random(in: 0...digits, using: &rng)
      let placed = point == digits ? text : String(text.prefix(point)) + "." + text.dropFirst(point)
      let token = placed.hasPrefix(".") ? "0" + placed : placed
      for candidate in [token + "e\(exponent)", token] {
        #expect(parse(candidate)?.bitPattern == Double(candidate)?.bitPattern, "case \(i): \(candidate)")
      }
    }
    // Exactly halfway between two Doubles, or one unit past halfway (ties go to the even one).
    for text in [
      "9007199254740993", "9007199254740995", "9007199254740993.0000000001", "18014398509481986e1",
      "0.9975640502598243", "4.336808689942019e-19", "1780272000.0166667", "9999999999999999999e-27",
      "1000000000000000000e27", "9007199254740993e-27", "9007199254740993e27",
    ] {
      #expect(parse(text)?.bitPattern == Double(text)?.bitPattern, "\(text)")
    }
  }

  @Test(
    "non-numbers and non-finite values are refused",
    arguments: ["", "-", ".", "e5", "1e", "1e+", "nan", "inf", "0x10", "1.2.3", "1e999", "--1", "1,5"])
  func refuses(_ text: String) {
    #expect(parse(text) == nil)
  }
}

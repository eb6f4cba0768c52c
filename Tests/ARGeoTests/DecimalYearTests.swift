import ARGeo
import ARTestSupport
import Testing

@Suite("Dates for the magnetic model")
struct DecimalYearTests {
  /// Dates, their midnight in Unix time (Python's `calendar.timegm`), and the decimal year.
  static let dates: [(String, Double, Double)] = [
    ("2025-01-01", 1_735_689_600, 2025), ("2026-11-24", 1_795_478_400, 2026 + 327.0 / 365),
    ("2028-12-31", 1_861_833_600, 2028 + 365.0 / 366), ("2000-02-29", 951_782_400, 2000 + 59.0 / 366),
  ]

  @Test("ISO dates and Unix times give the WMM software's decimal year", arguments: dates)
  func decimalYears(iso: String, seconds: Double, expected: Double) throws {
    #expect(try MagneticModel.decimalYear(isoDate: iso) == expected)
    #expect(try MagneticModel.decimalYear(secondsSince1970: seconds) == expected)
    // Any time of that UTC day is the same day.
    #expect(try MagneticModel.decimalYear(secondsSince1970: seconds + 86_399.5) == expected)
  }

  @Test(
    "text that is not a date is refused, saying what was expected",
    arguments: [
      ("2026-2-3", "invalidDate"), ("2026-02-30", "invalidDate"), ("x", "invalidDate"), ("", "invalidDate"),
    ])
  func badDates(text: String, expectedCase: String) {
    expectError(GeoError.self, expectedCase) { try MagneticModel.decimalYear(isoDate: text) }
  }
}

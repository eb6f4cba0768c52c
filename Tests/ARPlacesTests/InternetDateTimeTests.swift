import ARMath
import ARPlaces
import Foundation
import Testing

/// RFC 3339 times against Python's `datetime.fromisoformat(...).timestamp()` and, over seeded
/// random times, against Foundation's ICU-based `ISO8601DateFormatter`.
@Suite("Internet date-times")
struct InternetDateTimeTests {
  /// Python 3 `datetime.fromisoformat(text).timestamp()` (with `Z` written `+00:00`).
  @Test(arguments: [
    ("2021-07-29T12:52:25Z", 1_627_563_145.0),
    ("2021-07-29T12:52:25.123456Z", 1_627_563_145.123456),
    ("1969-12-31T23:59:59.5+01:30", -5400.5),
    ("2000-02-29T00:00:00-05:00", 951_800_400.0),
    ("1900-03-01T00:00:00Z", -2_203_891_200.0),
    ("2100-12-31T23:59:59.999999Z", 4_133_980_799.999999),
  ])
  func python(text: String, seconds: Double) {
    #expect(InternetDateTime.secondsSince1970(text) == seconds)
  }

  @Test func forms() {
    let utc = InternetDateTime.secondsSince1970("2026-05-30T08:12:03Z")
    // Lower case, a space, no zone (GPX's times are UTC), a zero offset: all the same instant.
    for text in [
      "2026-05-30t08:12:03z", "2026-05-30 08:12:03Z", "2026-05-30T08:12:03", "2026-05-30T08:12:03+00:00",
      "2026-05-30T10:12:03+02:00", "2026-05-30T08:12:03.000Z",
    ] {
      #expect(InternetDateTime.secondsSince1970(text) == utc, "\(text)")
    }
    // A leap second is the next minute's first, as in POSIX time.
    #expect(
      InternetDateTime.secondsSince1970("2016-12-31T23:59:60Z")
        == InternetDateTime.secondsSince1970("2017-01-01T00:00:00Z"))
  }

  @Test(arguments: [
    "", "2026-05-30", "2026-05-30T08:12", "2026-02-29T00:00:00Z", "2026-04-31T00:00:00Z",
    "2026-13-01T00:00:00Z",
    "2026-00-10T00:00:00Z", "2026-05-00T00:00:00Z", "2026-05-30T24:00:00Z", "2026-05-30T08:60:00Z",
    "2026-05-30T08:12:61Z", "2026-5-30T08:12:03Z", "2026-05-30T08:12:03.Z", "2026-05-30T08:12:03+0200",
    "2026-05-30T08:12:03+24:00", "2026-05-30T08:12:03Zjunk", "2026-05-30T08:12:03 Z", "+2026-05-30T08:12:03Z",
    "２０２６-05-30T08:12:03Z", "2026-05-30T08:12:03.1e5Z",
  ])
  func rejected(text: String) {
    #expect(InternetDateTime.secondsSince1970(text) == nil)
  }

  /// 2,000 random instants from 1900 to 2100 with random offsets and milliseconds, written
  /// and read back by ICU.
  @Test func againstICU() {
    var random = SplitMix64(seed: 3339)
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    for _ in 0..<2000 {
      let year = Int.random(in: 1900...2100, using: &random)
      let month = Int.random(in: 1...12, using: &random)
      let day = Int.random(in: 1...28, using: &random)
      let (hour, minute, second) = (
        Int.random(in: 0...23, using: &random), Int.random(in: 0...59, using: &random),
        Int.random(in: 0...59, using: &random)
      )
      let millisecond = Int.random(in: 0...999, using: &random)
      let offset = Int.random(in: -14 * 60...14 * 60, using: &random)
      let zone =
        offset == 0
        ? "Z" : String(format: "%@%02d:%02d", offset < 0 ? "-" : "+", abs(offset) / 60, abs(offset) % 60)
      let text =
        String(
          format: "%04d-%02d-%02dT%02d:%02d:%02d.%03d", year, month, day, hour, minute, second, millisecond)
        + zone
      guard let icu = formatter.date(from: text)?.timeIntervalSince1970 else {
        Issue.record("ICU refused \(text)")
        continue
      }
      let ours = InternetDateTime.secondsSince1970(text)
      #expect(
        ours.map { abs($0 - icu) < 1e-6 } == true, "\(text): \(String(describing: ours)) against \(icu)")
    }
  }
}

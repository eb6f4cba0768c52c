/// Dates as the magnetic model takes them: decimal years, computed as the WMM software does.
extension MagneticModel {
  /// The decimal year of a calendar date at 00:00 UTC, as the WMM software computes it:
  /// year + (day of year − 1) / (days in the year).
  public static func decimalYear(year: Int, month: Int, day: Int) throws(GeoError) -> Double {
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    guard (1...12).contains(month), day >= 1, day <= lengths[month - 1] else {
      throw .invalidDate("\(year)-\(month)-\(day) is not a calendar date")
    }
    let dayOfYear = lengths[0..<(month - 1)].reduce(0, +) + day
    return Double(year) + Double(dayOfYear - 1) / Double(leap ? 366 : 365)
  }

  /// The decimal year of an ISO 8601 calendar date `YYYY-MM-DD` (UTC).
  ///
  /// - Throws: ``GeoError/invalidDate(_:)`` for text of another form or a day that does not exist.
  public static func decimalYear(isoDate text: String) throws(GeoError) -> Double {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2])
    else { throw .invalidDate("expected YYYY-MM-DD, got \(text)") }
    return try decimalYear(year: y, month: m, day: d)
  }

  /// The decimal year of the UTC day that contains `seconds` since 1970-01-01 00:00 UTC (the
  /// day's midnight, as for a calendar date).
  public static func decimalYear(secondsSince1970 seconds: Double) throws(GeoError) -> Double {
    guard seconds.isFinite, abs(seconds) < 1e14 else { throw .invalidDate("\(seconds) s is not a time") }
    // Days since the epoch to a civil date (Howard Hinnant's days_from_civil, inverted).
    let z = Int((seconds / 86_400).rounded(.down)) + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return try decimalYear(year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month: month, day: day)
  }
}

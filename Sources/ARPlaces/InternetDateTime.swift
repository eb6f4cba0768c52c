/// Times as GPX, GeoJSON properties and most web formats write them: RFC 3339's
/// `date-time` (the profile of ISO 8601 that XML Schema's `dateTime` also follows).
///
/// Read by hand rather than with Foundation's `ISO8601DateFormatter`: on Linux each change of
/// that formatter's options builds a new ICU formatter, which made reading a GPX track of a few
/// thousand points take most of a second, and it rounds to milliseconds where phones write
/// microseconds.
public enum InternetDateTime {
  /// Seconds since 1970-01-01T00:00:00Z of `text`, or nil when it is not such a time.
  ///
  /// Accepted: `YYYY-MM-DDThh:mm:ss`, a fraction of a second of any length (`.5`,
  /// `.1234567`), then `Z` or an offset `±hh:mm`. A time without a zone is taken as UTC, as
  /// GPX requires of its times; `t`, `z` and a space for `T` are accepted as RFC 3339 allows.
  /// A leap second (`:60`) counts as the first second of the next minute, as POSIX time does.
  /// The date must exist (no 31 April, no 29 February outside leap years).
  public static func secondsSince1970(_ text: String) -> Double? {
    var utf8 = Array(text.utf8)[...]
    guard let year = number(&utf8, digits: 4), take(&utf8, "-"), let month = number(&utf8, digits: 2),
      take(&utf8, "-"), let day = number(&utf8, digits: 2),
      take(&utf8, "T") || take(&utf8, "t") || take(&utf8, " "),
      let hour = number(&utf8, digits: 2), take(&utf8, ":"), let minute = number(&utf8, digits: 2),
      take(&utf8, ":"), let second = number(&utf8, digits: 2)
    else { return nil }
    guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), hour < 24,
      minute < 60, second <= 60
    else { return nil }
    var fraction = 0.0
    if take(&utf8, ".") {
      let digits = utf8.prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
      guard !digits.isEmpty, let value = Double("0." + String(decoding: digits, as: UTF8.self)) else {
        return nil
      }
      fraction = value
      utf8.removeFirst(digits.count)
    }
    var offsetMinutes = 0
    if take(&utf8, "Z") || take(&utf8, "z") {
    } else if let sign = utf8.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
      utf8.removeFirst()
      guard let hours = number(&utf8, digits: 2), take(&utf8, ":"), let minutes = number(&utf8, digits: 2),
        hours < 24, minutes < 60
      else { return nil }
      offsetMinutes = (hours * 60 + minutes) * (sign == UInt8(ascii: "-") ? -1 : 1)
    }
    guard utf8.isEmpty else { return nil }
    let days = daysSince1970(year: year, month: month, day: day)
    let whole = ((days * 24 + hour) * 60 + minute - offsetMinutes) * 60 + second
    return Double(whole) + fraction
  }

  /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's
  /// `days_from_civil`).
  static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// Reads exactly `digits` ASCII digits.
  private static func number(_ text: inout ArraySlice<UInt8>, digits: Int) -> Int? {
    guard text.count >= digits else { return nil }
    var value = 0
    for byte in text.prefix(digits) {
      guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
    }
    text.removeFirst(digits)
    return value
  }

  private static func take(_ text: inout ArraySlice<UInt8>, _ character: Unicode.Scalar) -> Bool {
    guard text.first == UInt8(ascii: character) else { return false }
    text.removeFirst()
    return true
  }
}

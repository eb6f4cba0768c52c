import ARFiles
import ARMath
import Foundation

/// The layout of a single text file of poses told from what it holds, never from its name: the
/// first data lines' column counts and separators, which columns make a unit quaternion or a
/// rotation, and whether the times step as the layout's unit says they should. A file that
/// fits no layout, or more than one, is refused with the reason: a file must never read as a
/// layout it is not.
///
/// | layout | a line | told by |
/// | --- | --- | --- |
/// | TUM | `t tx ty tz qx qy qz qw` | 8 numbers, columns 5–8 a unit quaternion, `t` seconds |
/// | ARCore Data Logger | `t_ns qx qy qz qw tx ty tz` | 8 numbers, `t_ns` whole nanoseconds, columns 2–5 a unit quaternion |
/// | EuRoC | `t_ns, tx, ty, tz, qw, qx, qy, qz[, …]` | commas, columns 5–8 a unit quaternion |
/// | KITTI | `r11 r12 r13 tx … r33 tz` | 12 numbers, a rotation |
/// | ARKit Data Logger | `t_ns r11 r12 r13 tx … r33 tz` | 13 numbers, a rotation after the time |
enum PoseFileContent {
  /// Bytes looked at: the first lines of the file (64 KiB holds hundreds).
  static let sampleBytes = 65_536
  /// Data lines looked at.
  static let sampleLines = 200
  /// How far from 1 a quaternion's norm may be: files print 4 to 9 digits.
  static let unitTolerance = 1e-3
  /// The longest median step between poses, seconds, a layout's times may make: poses come many
  /// times a second; nanoseconds read as seconds step by millions.
  static let longestMedianStep = 600.0
  /// The shortest: a microsecond (seconds read as nanoseconds step by billionths).
  static let shortestMedianStep = 1e-6

  /// The layouts a single file of poses can be.
  static let candidates: [RecordingFormat] = [.tum, .arcoreDataLogger, .euroc, .kitti, .arkitDataLogger]

  /// A data line: its number in the file, its numbers, whether commas separate them.
  struct Row {
    var line: Int
    var values: [Double]
    var commas: Bool
  }

  /// The layout of the file at `path`, by its content: the one layout all its first data lines
  /// fit, times included. The name is never enough, but it settles what the content leaves open:
  /// between layouts that fit alike, or when a later line fits none (a damaged line, which the
  /// named layout's reader then names), the layout the name says (`.tum`, `.csv`, `.kitti`,
  /// `ARKit_…`, `ARCore_…`) if its lines fit up to that line.
  /// - Throws: ``RecordingError/unknownFormat(path:reason:)`` saying, for each layout of that
  ///   many columns, the first line and field it cannot have written, or which layouts fit alike.
  static func layout(of path: String) throws(RecordingError) -> RecordingFormat {
    let rows = try sample(path)
    guard let first = rows.first else {
      throw .unknownFormat(path: path, reason: "no line of numbers to tell its layout by; give --from")
    }
    let named = nameHint(path)
    let fitting = candidates.filter { (try? check(rows, as: $0, path: path)) != nil }
    if fitting.count == 1 { return fitting[0] }
    if let named, fitting.contains(named) { return named }
    if fitting.count > 1 {
      throw .unknownFormat(
        path: path,
        reason:
          "its lines fit \(fitting.map(\.title).joined(separator: " and ")) alike; give --from \(fitting.map(\.rawValue).joined(separator: " or "))"
      )
    }
    if let named, (try? check([first], as: named, path: path)) != nil,
      (try? check(rows, as: named, path: path, timesOnly: true)) != nil
    {
      return named
    }
    let sameWidth = candidates.filter {
      expectedColumns($0).contains(first.values.count) && ($0 == .euroc) == first.commas
    }
    if sameWidth.count == 1 { try check(rows, as: sameWidth[0], path: path) }  // its own words
    let reasons = sameWidth.compactMap { format -> String? in
      do throws(RecordingError) { try check(rows, as: format, path: path) } catch {
        guard case .badRecord(_, let line, let field, let reason) = error else {
          return "not \(format.title)"
        }
        return "not \(format.title) (line \(line): \(field): \(reason))"
      }
      return nil
    }
    throw .unknownFormat(
      path: path,
      reason:
        "line \(first.line) holds \(first.values.count) numbers\(first.commas ? " (commas)" : ""); "
        + (reasons.isEmpty ? "no layout this build reads has that many" : reasons.joined(separator: "; "))
        + "; give --from")
  }

  /// The layout a file's name says, if it says one: a hint, never enough alone.
  static func nameHint(_ path: String) -> RecordingFormat? {
    let name = URL(fileURLWithPath: path).lastPathComponent.lowercased()
    if name.hasSuffix(".tum") { return .tum }
    if name.hasSuffix(".kitti") { return .kitti }
    if name.hasSuffix(".csv") { return .euroc }
    if name.hasPrefix("arkit_") { return .arkitDataLogger }
    if name.hasPrefix("arcore_") { return .arcoreDataLogger }
    return nil
  }

  /// Checks that the file at `path` holds `format`'s lines, as far as its first lines show:
  /// what `--from` claims is verified before anything is reported.
  static func verify(_ path: String, as format: RecordingFormat) throws(RecordingError) {
    let rows = try sample(path)
    guard let first = rows.first else { return }  // the reader says what is wrong
    try check([first], as: format, path: path)
    try check(rows, as: format, path: path, timesOnly: true)
  }

  /// The numbers each layout's line holds.
  static func expectedColumns(_ format: RecordingFormat) -> ClosedRange<Int> {
    switch format {
    case .kitti: 12...12
    case .arkitDataLogger: 13...13
    case .euroc: 8...Int.max
    default: 8...8
    }
  }

  /// Throws the first row (or the times) that `format` cannot have written; `timesOnly`, the
  /// times of the rows up to the first that does not fit (that row is its reader's to name).
  static func check(
    _ rows: [Row], as format: RecordingFormat, path: String, timesOnly: Bool = false
  ) throws(RecordingError) {
    if timesOnly {
      let fitting = rows.prefix { (try? check([$0], as: format, path: path)) != nil }
      return try check(Array(fitting), as: format, path: path)
    }
    let columns = expectedColumns(format)
    var times: [Double] = []
    for row in rows {
      let v = row.values
      func fail(_ field: String, _ reason: String) -> RecordingError {
        .badRecord(path: path, line: row.line, field: field, reason: reason)
      }
      guard columns.contains(v.count) else {
        throw fail("line", "\(v.count) numbers, where a \(format.title) line has \(describe(columns))")
      }
      guard row.commas == (format == .euroc) else {
        throw fail(
          "line", format == .euroc ? "EuRoC's columns are separated by commas" : "commas separate its numbers"
        )
      }
      switch format {
      case .tum:
        guard isUnit(v[4...7]) else {
          throw fail("qx, qy, qz, qw", notUnit(v[4...7], "columns 5–8 (qx qy qz qw)"))
        }
        times.append(v[0])
      case .arcoreDataLogger:
        guard v[0] == v[0].rounded(), v[0] >= 0 else {
          throw fail("t_ns", "\(v[0]) is not whole nanoseconds")
        }
        guard isUnit(v[1...4]) else {
          throw fail("qx, qy, qz, qw", notUnit(v[1...4], "columns 2–5 (qx qy qz qw)"))
        }
        times.append(v[0] * 1e-9)
      case .euroc:
        guard isUnit(v[4...7]) else {
          throw fail("qw, qx, qy, qz", notUnit(v[4...7], "columns 5–8 (qw qx qy qz)"))
        }
        times.append(v[0] * 1e-9)
      case .kitti, .arkitDataLogger:
        do { _ = try TrajectoryFormat.rowMajorPose(v, from: format == .kitti ? 0 : 1) } catch {
          throw fail("r11…r33", error.reason)
        }
        if format == .arkitDataLogger { times.append(v[0] * 1e-9) }
      default:
        return
      }
    }
    try plausibleSteps(times, rows: rows, format: format, path: path)
  }

  /// Whether `q` is a unit quaternion, within ``unitTolerance``: the one check every pose
  /// file's quaternion passes (the sniffing here, TUM and EuRoC lines, ARCore's).
  static func isUnitQuaternion(_ q: SIMD4<Double>) -> Bool {
    abs(q.length - 1) <= unitTolerance
  }

  private static func isUnit(_ values: ArraySlice<Double>) -> Bool {
    let v = Array(values)
    return isUnitQuaternion(SIMD4(v[0], v[1], v[2], v[3]))
  }

  /// Why `values` (the `columns` named) are not a unit quaternion.
  private static func notUnit(_ values: ArraySlice<Double>, _ columns: String) -> String {
    "\(columns) are not a unit quaternion (norm \(String(format: "%.4g", norm(values))))"
  }

  private static func norm(_ values: ArraySlice<Double>) -> Double {
    values.reduce(0) { $0 + $1 * $1 }.squareRoot()
  }

  /// Times whose median step is that of poses, not of nanoseconds read as seconds.
  private static func plausibleSteps(
    _ times: [Double], rows: [Row], format: RecordingFormat, path: String
  ) throws(RecordingError) {
    let steps = zip(times, times.dropFirst()).map { $1 - $0 }.filter { $0 > 0 }.sorted()
    guard !steps.isEmpty else { return }
    let median = steps[steps.count / 2]
    guard median >= shortestMedianStep else {
      throw .badRecord(
        path: path, line: rows[0].line, field: "t",
        reason:
          "poses \(String(format: "%.4g", median)) s apart (the median step of the first \(times.count)): no device writes poses that often"
      )
    }
    guard median <= longestMedianStep else {
      let unit = format == .tum ? "seconds" : "nanoseconds"
      throw .badRecord(
        path: path, line: rows[0].line, field: "t",
        reason:
          "poses \(String(format: "%.4g", median)) s apart (the median step of the first \(times.count)): \(format.title) times are \(unit)\(format == .tum ? "; nanoseconds read as seconds?" : "")"
      )
    }
  }

  private static func describe(_ columns: ClosedRange<Int>) -> String {
    columns.upperBound == Int.max
      ? "at least \(columns.lowerBound)"
      : columns.count == 1 ? "\(columns.lowerBound)" : "\(columns.lowerBound) to \(columns.upperBound)"
  }

  /// The first data lines of `path`: numbers, with `#` comments, blank lines, a header of
  /// words, and the ARKit Data Logger's `Created at …` header left out.
  static func sample(_ path: String) throws(RecordingError) -> [Row] {
    let head: [UInt8]
    do { head = try FileIO.readPrefix(path, count: sampleBytes) } catch {
      throw .unreadable(path: path, reason: error.reason)
    }
    var lines = head.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    if head.count == sampleBytes, lines.count > 1 { lines.removeLast() }  // cut mid-line
    var rows: [Row] = []
    for (i, slice) in lines.enumerated() where rows.count < sampleLines {
      var bytes = Array(slice)
      if i == 0 { bytes = ARKitDataLoggerLayout.droppingHeader(bytes) }
      while let last = bytes.last, last == 0x0D || last == 0x20 || last == 0x09 { bytes.removeLast() }
      let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces)
      guard !text.isEmpty, !text.hasPrefix("#"), !text.hasPrefix("Created at") else { continue }
      let fields = text.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" })
      // `nan` and `inf` count as numbers here: a layout is told by its shape, and its reader
      // names the line that holds one.
      let values = fields.compactMap { Double($0) }
      guard values.count == fields.count else {
        if rows.isEmpty { continue }  // a header of column names
        break
      }
      rows.append(Row(line: i + 1, values: values, commas: text.contains(",")))
    }
    return rows
  }
}

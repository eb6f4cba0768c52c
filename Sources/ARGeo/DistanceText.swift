import Foundation

/// Distances as labels and map scales show them.
public enum DistanceText {
  /// A distance as a label shows it: "8.4 m" below 10 m, "42 m" below a kilometre, "1.2 km".
  public static func formatted(_ metres: Double) -> String {
    if metres < 10 { return String(format: "%.1f m", metres) }
    if metres < 1000 { return "\(Int(metres.rounded())) m" }
    return String(format: "%.1f km", metres / 1000)
  }
}

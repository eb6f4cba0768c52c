import Foundation

/// The game as `arscene poi game` reports it.
public struct VisitGameReport: Encodable, Sendable {
  /// Every stop visited so far, in the order visited.
  public var visited: [Visited]
  /// The id of the next stop to visit; nil when the game is complete.
  public var next: String?
  /// How many stops are visited, of how many.
  public var progress: Progress
  /// Whether every stop is visited.
  public var complete: Bool
  /// The stops this run visited, in order.
  public var newlyVisited: [String]

  /// A stop visited.
  public struct Visited: Encodable, Sendable {
    /// The stop's id.
    public var id: String
    /// When it was visited: the deciding fix's time, seconds since 1970.
    public var time: Double
  }
  /// Stops visited of the total.
  public struct Progress: Encodable, Sendable {
    /// Stops visited.
    public var visited: Int
    /// Stops in the game.
    public var total: Int
  }

  /// The report of `game`, with the stops this run visited.
  public init(_ game: VisitGame, newlyVisited: [String]) {
    visited = game.visits.map { Visited(id: $0.id, time: $0.time) }
    next = game.nextStop
    progress = Progress(visited: game.progress.visited, total: game.progress.total)
    complete = game.isComplete
    self.newlyVisited = newlyVisited
  }

  enum CodingKeys: String, CodingKey {
    case visited, next, progress, complete
    case newlyVisited = "newly_visited"
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(visited, forKey: .visited)
    try c.encode(next, forKey: .next)
    try c.encode(progress, forKey: .progress)
    try c.encode(complete, forKey: .complete)
    try c.encode(newlyVisited, forKey: .newlyVisited)
  }
}

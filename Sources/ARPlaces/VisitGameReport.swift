import Foundation

/// The game as `arscene poi game` reports it.
public struct VisitGameReport: Encodable, Sendable {
  public var visited: [Visited]
  public var next: String?
  public var progress: Progress
  public var complete: Bool
  /// The stops this run visited, in order.
  public var newlyVisited: [String]

  public struct Visited: Encodable, Sendable {
    public var id: String
    public var time: Double
  }
  public struct Progress: Encodable, Sendable {
    public var visited: Int
    public var total: Int
  }

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

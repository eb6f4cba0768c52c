import Foundation
import Testing

/// The case of an error of an enum type, as Swift names it (`invalidCoordinate` of
/// `GeoError.invalidCoordinate(field:value:reason:)`); the type's description otherwise.
public func errorCaseName(_ error: any Error) -> String {
  if let label = Mirror(reflecting: error).children.first?.label { return label }
  return String(String(describing: error).prefix { $0 != "(" })
}

/// Expects `body` to throw an `E` of case `expectedCase` (its name as ``errorCaseName(_:)``
/// gives it): an error test that checks what went wrong, not only that something did.
public func expectError<E: Error>(
  _ type: E.Type, _ expectedCase: String, sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () throws -> Void
) {
  do {
    try body()
    Issue.record("expected \(E.self).\(expectedCase), nothing was thrown", sourceLocation: sourceLocation)
  } catch let error as E {
    let actual = errorCaseName(error)
    #expect(actual == expectedCase, "\(error)", sourceLocation: sourceLocation)
  } catch {
    Issue.record("expected \(E.self).\(expectedCase), got \(error)", sourceLocation: sourceLocation)
  }
}

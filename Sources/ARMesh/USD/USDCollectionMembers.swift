/// The members of a `UsdCollectionAPI` collection as usd-core's membership query finds them:
/// each path its `includes` name (and the stage's root, with `includeRoot`) with the
/// collection's `expansionRule` (`expandPrims`, the fallback: the path and every prim under it;
/// `explicitOnly`: the path alone), the collections it includes merged in with their own rules,
/// and each path its `excludes` name taken out with everything under it. A path belongs when its
/// nearest listed ancestor (or itself) is included. A `membershipExpression` (pattern-based
/// membership, which usd-core evaluates where there are no includes or excludes) is not
/// evaluated: ``unread`` says so.
struct USDCollectionMembers {
  /// Each listed path with its rule: `expandPrims`, `expandPrimsAndProperties`,
  /// `explicitOnly` or `exclude`.
  private(set) var rules: [String: String] = [:]
  /// Why the collection is not read whole (nil when it is).
  private(set) var unread: String?

  /// The collection at `collection` (`/World.collection:red`) as the stage's `values` define it.
  init(_ collection: String, values: [String: USDValue]) {
    add(collection, values: values, depth: 0)
  }

  /// Merges in the rules of collection `collection` (`depth` collections deep).
  private mutating func add(_ collection: String, values: [String: USDValue], depth: Int) {
    guard depth < 8 else {
      unread = "includes collections more than eight deep (a cycle?)"
      return
    }
    var rule = "expandPrims"
    if case .token(let authored)? = values[collection + ":expansionRule"] { rule = authored }
    // usd-core evaluates an expression only where the collection lists no includes or excludes.
    if values[collection + ":membershipExpression"] != nil, values[collection + ":includes"] == nil,
      values[collection + ":excludes"] == nil
    {
      unread = "a membershipExpression"
    }
    // A bool, read as a number.
    if case .double(let on)? = values[collection + ":includeRoot"], on != 0 { rules["/"] = rule }
    if case .paths(let includes)? = values[collection + ":includes"] {
      for path in includes {
        if path.contains(".collection:") {
          add(path, values: values, depth: depth + 1)
        } else {
          rules[path] = rules[path] == "exclude" ? "exclude" : rule
        }
      }
    }
    if case .paths(let excludes)? = values[collection + ":excludes"] {
      for path in excludes { rules[path] = "exclude" }
    }
  }

  /// Whether prim `path` is a member.
  func contains(_ path: String) -> Bool {
    // The nearest listed of the path, its ancestors and the root decides.
    for listed in [path] + USDStageReader.ancestors(of: path) + ["/"] {
      guard let rule = rules[listed] else { continue }
      if rule == "exclude" { return false }
      if rule != "explicitOnly" || listed == path { return true }
    }
    return false
  }
}

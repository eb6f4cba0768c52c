#if canImport(Testing)
  import ARImage
  import Testing

  /// Checks `image` against the reference `name` of the calling test file (Swift Testing): a
  /// difference past `gates`, a recorded reference or a missing one is an issue at the call,
  /// with the figures in its message, and the reference, actual and difference images are
  /// attached to the test (`swift test --attachments-path DIR` saves them; Xcode shows them)
  /// as well as written to the store's artifacts folder.
  ///
  /// ```swift
  /// let phone = try hand.phone(aimedAt: "LI4", from: 0.30)
  /// expectSnapshot(try phone.snapshot(.init(highlighting: ["LI4"])), named: "li4-30cm")
  /// ```
  public func expectSnapshot(
    _ image: @autoclosure () throws -> RGBA8Image, named name: String, gates: SnapshotGates = .standard,
    filePath: String = #filePath, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    do {
      let store = try SnapshotStore(testFile: filePath)
      let verdict = try store.verify(try image(), named: name, gates: gates)
      if case .differs(_, let reference, let actual, let difference) = verdict {
        for (path, label) in [(reference, "reference"), (actual, "actual"), (difference, "difference")] {
          if let bytes = try? SnapshotFiles.read(path) {
            Attachment.record(bytes, named: "\(name).\(label).png", sourceLocation: sourceLocation)
          }
        }
      }
      if let failure = verdict.failure {
        Issue.record(Comment(rawValue: "\(name): \(failure)"), sourceLocation: sourceLocation)
      }
    } catch {
      Issue.record(Comment(rawValue: "\(name): \(error)"), sourceLocation: sourceLocation)
    }
  }
#endif

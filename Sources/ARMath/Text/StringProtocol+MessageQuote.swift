extension StringProtocol {
  /// At most 60 characters of this text, for an error message (cut with "…" when longer): a
  /// bad field is quoted, never echoed whole, however long the line it came from.
  package var quotedForMessage: String {
    count <= 60 ? String(self) : String(prefix(57)) + "…"
  }
}

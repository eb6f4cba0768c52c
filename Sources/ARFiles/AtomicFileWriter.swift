#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes a file of any size piece by piece and atomically: into a temporary file beside it,
/// renamed over `path` by ``commit()``. Until then (an error, a crash) readers see the old file
/// or none, and a writer dropped without committing removes its temporary file.
///
/// The path must pass ``OutputTarget/check(_:)`` when writing starts and again when it is
/// committed: nothing but a regular file that is none of the inputs is replaced. The file keeps
/// the replaced file's mode (and owner, where the process may set it); a new file gets 0666 less
/// the umask.
package final class AtomicFileWriter {
  /// The file being written.
  package let path: String
  private let temporaryPath: String
  private var file: UnsafeMutablePointer<FILE>?

  /// Starts writing `path`; `-` (``FileIO/standardOutput``) writes standard output instead,
  /// as it comes (a stream has no rename).
  package init(path: String) throws(FileIOError) {
    self.path = path
    if path == FileIO.standardOutput {
      temporaryPath = ""
      let descriptor = dup(1)
      guard descriptor >= 0, let file = fdopen(descriptor, "wb") else {
        throw .unwritable(path: path, reason: String(cString: strerror(errno)))
      }
      fflush(nil)  // what print() buffered goes first
      self.file = file
      return
    }
    let permissions = try OutputTarget.check(path)
    let (descriptor, temporary) = try InFlightFiles.makeTemporary(for: path, template: path + ".tmp-XXXXXX")
    temporaryPath = temporary
    guard let file = fdopen(descriptor, "wb") else {
      close(descriptor)
      unlink(temporaryPath)
      InFlightFiles.remove(temporaryPath)
      throw .unwritable(path: path, reason: String(cString: strerror(errno)))
    }
    permissions.apply(to: descriptor)
    self.file = file
  }

  deinit {
    guard let file else { return }
    fclose(file)
    guard !temporaryPath.isEmpty else { return }  // standard output: nothing to remove
    unlink(temporaryPath)
    InFlightFiles.remove(temporaryPath)
  }

  /// Appends `text`'s UTF-8 bytes.
  package func write(_ text: String) throws(FileIOError) {
    var text = text
    guard text.withUTF8({ append(UnsafeRawBufferPointer($0)) }) else { throw writeFailure() }
  }

  /// Appends `bytes`.
  package func write(bytes: [UInt8]) throws(FileIOError) {
    guard bytes.withUnsafeBytes(append) else { throw writeFailure() }
  }

  /// Appends the bytes of `buffer` (for an encoder's own output, written without a copy).
  package func write(buffer: UnsafeRawBufferPointer) throws(FileIOError) {
    guard append(buffer) else { throw writeFailure() }
  }

  private func append(_ buffer: UnsafeRawBufferPointer) -> Bool {
    buffer.isEmpty || fwrite(buffer.baseAddress!, 1, buffer.count, file) == buffer.count
  }

  private func writeFailure() -> FileIOError {
    .unwritable(path: path, reason: String(cString: strerror(errno)))
  }

  /// Finishes the file: flushed, closed and renamed over `path`.
  package func commit() throws(FileIOError) {
    guard let file else { return }
    self.file = nil
    if temporaryPath.isEmpty {  // standard output
      guard fflush(file) == 0, fclose(file) == 0 else { throw writeFailure() }
      return
    }
    defer { InFlightFiles.remove(temporaryPath) }
    let flushed = fflush(file) == 0 && fsync(fileno(file)) == 0
    let closed = fclose(file) == 0
    do { try OutputTarget.check(path) } catch {
      unlink(temporaryPath)
      throw error
    }
    guard flushed && closed, rename(temporaryPath, path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporaryPath)
      throw .unwritable(path: path, reason: reason)
    }
  }
}

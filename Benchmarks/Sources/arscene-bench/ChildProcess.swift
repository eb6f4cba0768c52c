import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Runs `arguments` (the executable's path first) with its output discarded and blocks in
/// `waitpid` until it exits; its exit status, or nil when it could not start. Timed children
/// are started this way rather than through Foundation's `Process`, whose exit is seen by
/// polling (or in 50 ms steps): polling every 0.2 ms woke the bench thousands of times a second
/// on a core the child's threads wanted, and took a tenth off a two-thread child's speed-up.
func runChild(_ arguments: [String]) -> Int32? {
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
  var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
  defer { argv.forEach { free($0) } }
  var child = pid_t()
  guard posix_spawn(&child, arguments[0], &actions, nil, &argv, environ) == 0 else { return nil }
  var status: Int32 = 0
  while waitpid(child, &status, 0) < 0 && errno == EINTR {}
  // WIFEXITED / WEXITSTATUS, which Swift does not import.
  return status & 0x7F == 0 ? (status >> 8) & 0xFF : nil
}

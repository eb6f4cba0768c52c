// arscene-bench: ARScene's workloads against the peer libraries named in the issues, measured
// side by side in one run. Run through Tools/bench (release build); `--json` prints the rows as
// JSON objects with `workload`, `ours_s`, `peer`, `peer_s` and `ratio` (ours / peer; < 1 means we
// are faster).
import Foundation

let arguments = Set(CommandLine.arguments.dropFirst())
let unknown = arguments.subtracting(["--json", "--quick"])
guard unknown.isEmpty else {
  FileHandle.standardError.write(
    Data("arscene-bench: unknown argument \(unknown.sorted()[0]); use [--json] [--quick]\n".utf8))
  exit(64)
}
// --quick: a smoke run with small inputs (for CI-like checks that the bench still works).
let count = arguments.contains("--quick") ? 10_000 : 1_000_000

let rows = mathWorkloads(count: count)
if arguments.contains("--json") { printJSON(rows) } else { printTable(rows) }

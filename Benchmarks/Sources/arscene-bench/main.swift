// arscene-bench: ARScene's workloads against the peer libraries named in the issues, measured
// side by side in one run. Run through Tools/bench (release build); `--json` prints the rows as
// JSON objects with `workload`, `ours_s`, `peer`, `peer_s` and `ratio` (ours / peer; < 1 means we
// are faster).
import Foundation

let arguments = Set(CommandLine.arguments.dropFirst())
let groups = [
  "--math", "--geo", "--hit", "--pose", "--assets", "--render", "--recording", "--places", "--markers",
  "--film", "--scaling",
]
let unknown = arguments.subtracting(["--json", "--quick", "--crosscheck"] + groups)
guard unknown.isEmpty else {
  FileHandle.standardError.write(
    Data(
      "arscene-bench: unknown argument \(unknown.sorted()[0]); use [--json] [--quick] [--math] [--geo] [--hit] [--pose] [--assets] [--render] [--recording] [--places] [--markers] [--film] [--scaling] [--crosscheck]\n"
        .utf8))
  exit(64)
}
// --quick: a smoke run with small inputs (for CI-like checks that the bench still works).
let count = arguments.contains("--quick") ? 10_000 : 1_000_000

// --crosscheck: compare the rasterizer with llvmpipe instead of timing (Tools/crosscheck-llvmpipe).
if arguments.contains("--crosscheck") { exit(crosscheckLlvmpipe() ? 0 : 1) }
// --math, --assets, --render: only those workloads (default: all).
let all = arguments.isDisjoint(with: groups)
var rows: [Row] = []
if all || arguments.contains("--math") { rows += mathWorkloads(count: count) }
if all || arguments.contains("--geo") { rows += geoWorkloads(count: count) }
if all || arguments.contains("--hit") { rows += hitWorkloads(quick: arguments.contains("--quick")) }
if all || arguments.contains("--pose") { rows += poseWorkloads(quick: arguments.contains("--quick")) }
if all || arguments.contains("--assets") { rows += assetWorkloads(quick: arguments.contains("--quick")) }
if all || arguments.contains("--render") {
  rows += renderWorkloads(quick: arguments.contains("--quick"))
  rows += compositeWorkloads(quick: arguments.contains("--quick"))
}
if all || arguments.contains("--recording") {
  rows += recordingWorkloads(quick: arguments.contains("--quick"))
}
if all || arguments.contains("--places") { rows += placeWorkloads(quick: arguments.contains("--quick")) }
if all || arguments.contains("--scaling") { rows += scalingWorkloads(quick: arguments.contains("--quick")) }
if all || arguments.contains("--markers") { rows += markerWorkloads(quick: arguments.contains("--quick")) }
if all || arguments.contains("--film") { rows += filmWorkloads(quick: arguments.contains("--quick")) }
if arguments.contains("--json") {
  printJSON(rows)
} else {
  printTable(rows)
  if let (ours, open3d) = poseAgreement {
    print("Floor normal error: ours \(ours)°, Open3D \(open3d)°")
  }
  if hitAgreement.1 > 0 {
    print("Hit agreement with Embree: \(hitAgreement.0) of \(hitAgreement.1) rays differ in hit/miss")
  }
  if geoAgreement != (0, 0) {
    print(
      "Geo agreement with GeographicLib: ENU/height within \(geoAgreement.0) m, geodesic distance within \(geoAgreement.1) m"
    )
  }
  if let antialiased = antialiasedAgreement {
    print("Anti-aliased Závist, ours against llvmpipe 4x MSAA: \(antialiased)")
  }
  if pngSizes.0 > 0 {
    print(
      "PNG sizes: ours \(pngSizes.0) bytes (level 6), \(pngSizes.1) bytes (level 2); libpng default \(pngSizes.2) bytes"
    )
  }
}

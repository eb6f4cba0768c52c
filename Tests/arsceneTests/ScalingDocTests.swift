import ARTestSupport
import Foundation
import Testing

/// docs/SCALING.md's examples parse as their engines' formats and act on the exit-code contract:
/// bad input (2) and usage (64) are not retried, a transient failure (75) is.
@Suite("docs/SCALING.md's scheduler examples")
struct ScalingDocTests {
  static let text =
    (try? String(contentsOfFile: ArsceneRunner.packageRoot.path + "/docs/SCALING.md", encoding: .utf8)) ?? ""

  /// The fenced blocks of `language`, in order.
  static func blocks(_ language: String) -> [String] {
    text.components(separatedBy: "```" + language + "\n").dropFirst().map {
      String($0.components(separatedBy: "\n```")[0])
    }
  }

  @Test("the Slurm scripts are valid bash, requeue on 75 and take their share by the array index")
  func slurm() throws {
    let scripts = Self.blocks("bash")
    #expect(scripts.count == 2)
    let validate = try #require(scripts.first)
    #expect(validate.contains("SLURM_ARRAY_TASK_ID") && validate.contains("arscene validate --manifest"))
    #expect(scripts.last?.contains("arscene render --manifest") == true)
    let folder = try TemporaryFolder()
    for (i, script) in scripts.enumerated() {
      #expect(
        script.contains("--shard auto") && script.contains("-eq 75") && script.contains("#SBATCH --requeue"))
      let path = try folder.write(script, to: "job\(i).sbatch")
      let bash = Process()
      bash.executableURL = URL(fileURLWithPath: "/bin/bash")
      bash.arguments = ["-n", path]
      try bash.run()
      bash.waitUntilExit()
      #expect(bash.terminationStatus == 0)
    }
  }

  @Test("the Kubernetes Indexed Job fails an index at once on 2 and 64, and retries the rest")
  func kubernetes() throws {
    let manifest = try #require(Self.blocks("yaml").first)
    let script = """
      import json, sys, yaml
      job = yaml.safe_load(sys.stdin.read())
      spec = job["spec"]
      rule = spec["podFailurePolicy"]["rules"][0]
      container = spec["template"]["spec"]["containers"][0]
      print(json.dumps([job["kind"], spec["completionMode"], spec["backoffLimitPerIndex"], rule["action"],
                        rule["onExitCodes"]["values"], spec["template"]["spec"]["restartPolicy"], container["command"]]))
      """
    let peer = try PythonPeer.run(script, stdin: manifest, packages: "none")
    try #require(peer.status == 0, "\(peer.output)")
    let fields = try #require(try JSONSerialization.jsonObject(with: Data(peer.output.utf8)) as? [Any])
    #expect(fields[0] as? String == "Job" && fields[1] as? String == "Indexed" && fields[2] as? Int == 3)
    #expect(
      fields[3] as? String == "FailIndex" && fields[4] as? [Int] == [2, 64] && fields[5] as? String == "Never"
    )
    let command = try #require(fields[6] as? [String])
    #expect(command.starts(with: ["arscene", "validate"]) && command.contains("auto/100"))
    #expect(command.contains("/shared/out/shard-$(JOB_COMPLETION_INDEX).json"))
  }

  @Test("AWS Batch retries 75 and exits on 2 and 64; Google Cloud Batch fails the task on 2 and 64")
  func cloudBatches() throws {
    let documents = Self.blocks("json")
    try #require(documents.count == 2)
    let aws = try #require(try JSONSerialization.jsonObject(with: Data(documents[0].utf8)) as? [String: Any])
    let retry = try #require(
      (aws["retryStrategy"] as? [String: Any])?["evaluateOnExit"] as? [[String: String]])
    #expect(retry.contains { $0["onExitCode"] == "75" && $0["action"] == "RETRY" })
    #expect(
      ["2", "64"].allSatisfy { code in retry.contains { $0["onExitCode"] == code && $0["action"] == "EXIT" } }
    )
    let command = try #require((aws["containerProperties"] as? [String: Any])?["command"] as? [String])
    #expect(command.last?.contains("$AWS_BATCH_JOB_ARRAY_INDEX") == true)
    let google = try #require(
      try JSONSerialization.jsonObject(with: Data(documents[1].utf8)) as? [String: Any])
    let group = try #require((google["taskGroups"] as? [[String: Any]])?.first)
    let task = try #require(group["taskSpec"] as? [String: Any])
    let policy = try #require((task["lifecyclePolicies"] as? [[String: Any]])?.first)
    #expect(policy["action"] as? String == "FAIL_TASK")
    #expect((policy["actionCondition"] as? [String: Any])?["exitCodes"] as? [Int] == [2, 64])
    #expect(group["taskCount"] as? Int == 100)
  }
}

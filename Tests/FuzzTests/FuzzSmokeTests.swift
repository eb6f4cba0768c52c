import ARFuzzing
import Foundation
import Testing

/// A short seeded fuzz run of every reader (Tools/fuzz runs them long, under libFuzzer): inputs
/// mutated from each reader's seeds, read as arscene reads them. A crash or a hang fails the
/// suite; an error is the expected answer to most of them.
@Suite("Fuzzing every reader, briefly")
struct FuzzSmokeTests {
  @Test("200 seeded mutations of each reader's seeds end without a crash", arguments: FuzzReader.allCases)
  func mutations(reader: FuzzReader) throws {
    let folder = try FuzzFolder(for: reader)
    let seeds = FuzzSeeds.inputs(reader).map { Array($0.prefix(1 << 16)) }
    var mutator = Mutator(seed: 0x5EED &+ UInt64(reader.rawValue.utf8.count))
    for seed in seeds { reader.feed(seed, in: folder) }
    // ARSCENE_FUZZ_RUNS raises the count for a longer run by hand.
    let runs = ProcessInfo.processInfo.environment["ARSCENE_FUZZ_RUNS"].flatMap { Int($0) } ?? 200
    for k in 0..<runs {
      let input = mutator.mutate(seeds[k % seeds.count], other: seeds[(k * 7 + 3) % seeds.count])
      reader.feed(input, in: folder)
    }
  }
}

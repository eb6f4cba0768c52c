import ARFuzzing
import ARMeshCompression
import Foundation

// libFuzzer's driver for one of arscene's readers, chosen by ARSCENE_FUZZ_READER (Tools/fuzz
// sets it). The entry point calls LLVMFuzzerRunDriver: SwiftPM renames an executable's `main`,
// so libFuzzer's own `main` is never linked.

/// libFuzzer's driver, from `libclang_rt.fuzzer_no_main` (Tools/fuzz links it).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

guard let name = ProcessInfo.processInfo.environment["ARSCENE_FUZZ_READER"],
  let reader = FuzzReader(rawValue: name)
else {
  let names = FuzzReader.allCases.map(\.rawValue).joined(separator: ", ")
  FileHandle.standardError.write(Data("arscene-fuzz: set ARSCENE_FUZZ_READER to one of \(names)\n".utf8))
  exit(64)
}
// An empty corpus folder (the first argument that is not a flag) starts from the seeds.
if let corpus = CommandLine.arguments.dropFirst().first(where: { !$0.hasPrefix("-") }),
  (try? FileManager.default.contentsOfDirectory(atPath: corpus))?.isEmpty ?? false
{
  for (k, seed) in FuzzSeeds.inputs(reader).enumerated() {
    FileManager.default.createFile(atPath: corpus + "/seed-\(k)", contents: Data(seed.prefix(65536)))
  }
}
// As the command line does: compressed glTF decoded by meshoptimizer and Draco (fuzzed with them).
MeshoptDecoding.register()
DracoDecoding.register()
nonisolated(unsafe) let target = reader
nonisolated(unsafe) let folder = try! FuzzFolder(for: reader)
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(
  LLVMFuzzerRunDriver(&argc, &argv) { data, size in
    target.feed(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [], in: folder)
    return 0
  })

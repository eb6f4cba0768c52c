import ARMesh

/// Feeds each input to the OBJ reader, the mesh builder and the MTL reader. Errors are fine;
/// crashes, hangs and memory errors are what libFuzzer looks for.
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let data else { return 0 }
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  if let model = try? OBJReader.parse(bytes, path: "fuzz.obj", lenient: true) {
    let mesh = Mesh(obj: model)
    _ = mesh.welded()
    _ = mesh.objText()
  }
  _ = try? MTLReader.parse(bytes, path: "fuzz.mtl")
  return 0
}

/// libFuzzer's driver, from `libclang_rt.fuzzer_no_main` (Tools/fuzz links it).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

@main
enum OBJFuzz {
  static func main() {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOne(data, size) })
  }
}

#if canImport(Glibc)
  import Glibc
#endif

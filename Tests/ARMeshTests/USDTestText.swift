import ARTestSupport

/// USD text the USD tests' stages share.
enum USDTestText {
  /// Stage `body` (USD text after the layer's header) in metres with +Y up, written as `name`
  /// in `folder`: its path.
  static func write(_ body: String, as name: String, in folder: TemporaryFolder) throws -> String {
    try folder.write("#usda 1.0\n(\n    metersPerUnit = 1\n    upAxis = \"Y\"\n)\n" + body, to: name)
  }

  /// A `Material` prim at `path` (its name the path's last component) drawn by a
  /// `UsdPreviewSurface` of diffuse colour `diffuse` (USD text, `(r, g, b)`), as a line of a
  /// stage under the prim `path` names as its parent.
  static func previewMaterial(_ path: String, diffuse: String) -> String {
    let name = path.split(separator: "/").last.map(String.init) ?? path
    return """
      def Material "\(name)"
      {
          token outputs:surface.connect = <\(path)/Surface.outputs:surface>
          def Shader "Surface"
          {
              uniform token info:id = "UsdPreviewSurface"
              color3f inputs:diffuseColor = \(diffuse)
              token outputs:surface
          }
      }

      """
  }
}

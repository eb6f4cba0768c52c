/// USD text the USD tests' stages share.
enum USDTestText {
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

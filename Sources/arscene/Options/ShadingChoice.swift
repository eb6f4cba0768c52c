import ArgumentParser

/// How `render --model` shades: white on black, the flat face's Lambert term, or the model's
/// own materials and textures, lit as a scene is.
enum ShadingChoice: String, ExpressibleByArgument, CaseIterable {
  case unlit, lambert, materials
}

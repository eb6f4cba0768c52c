import ArgumentParser

/// How `render --model` shades: white on black, or the flat face's Lambert term.
enum ShadingChoice: String, ExpressibleByArgument, CaseIterable {
  case unlit, lambert
}

import ArgumentParser

/// Why an option's value was refused, in our words.
struct OptionValueError: Error, CustomStringConvertible {
  let description: String

  init(_ description: String) { self.description = description }
}

import ArgumentParser

/// An option's value with a structure of its own (`W,H`, `FX,FY,CX,CY`, 16 matrix numbers, …).
///
/// Options declare it with `transform: T.init(parsing:)`, so that a refused value is a usage
/// error (exit code 64) whose message says why after ArgumentParser's "The value '…' is invalid
/// for '--option'"; `init?(argument:)` serves the rest of ArgumentParser.
protocol OptionValue: ExpressibleByArgument {
  init(parsing text: String) throws(OptionValueError)
}

extension OptionValue {
  init?(argument: String) {
    guard let value = try? Self(parsing: argument) else { return nil }
    self = value
  }
}

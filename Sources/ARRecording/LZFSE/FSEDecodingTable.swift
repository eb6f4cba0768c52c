/// A finite-state-entropy decoding table, built from the symbol frequencies a block's header
/// gives, as LZFSE's reference decoder builds it: each symbol of frequency `f` owns `f`
/// consecutive states, and each state says how many bits to read for the next state and what
/// to add to them.
struct FSEDecodingTable {
  struct Entry {
    /// Bits read for the next state (and, for a value table, the value's extra bits after them).
    var stateBits: UInt8 = 0
    var valueBits: UInt8 = 0
    var delta: Int32 = 0
    var symbol: UInt8 = 0
    /// The value a value table's symbol starts from.
    var base: Int32 = 0
  }

  let entries: [Entry]

  /// The table of `states` states (a power of two) for `frequencies`, each symbol's value
  /// `base[s] + extra bits` (`bits[s]` of them) when given: a literal table without them.
  init(states: Int, frequencies: ArraySlice<UInt16>, valueBits: [UInt8]? = nil, valueBase: [Int32]? = nil)
    throws(LZFSEError)
  {
    var entries: [Entry] = []
    entries.reserveCapacity(states)
    let statesLeadingZeros = UInt32(states).leadingZeroBitCount
    for (symbol, frequency) in frequencies.enumerated() where frequency > 0 {
      let f = Int(frequency)
      guard entries.count + f <= states else {
        throw LZFSEError(at: 0, "symbol frequencies adding to more than the table's \(states) states")
      }
      // The shift that puts f·2^k in [states, 2·states).
      let k = UInt32(f).leadingZeroBitCount - statesLeadingZeros
      let firstLong = ((2 * states) >> k) - f
      var entry = Entry(symbol: UInt8(truncatingIfNeeded: symbol))
      if let valueBits, let valueBase {
        (entry.valueBits, entry.base) = (valueBits[symbol], valueBase[symbol])
      }
      for j in 0..<f {
        if j < firstLong {
          entry.stateBits = UInt8(k)
          entry.delta = Int32(((f + j) << k) - states)
        } else {
          entry.stateBits = UInt8(k - 1)
          entry.delta = Int32((j - firstLong) << (k - 1))
        }
        entries.append(entry)
      }
    }
    self.entries = entries
  }

  /// The symbol at `state`, which moves on to the next state.
  func symbol(_ state: inout Int, _ bits: inout FSEBackwardBits) throws(LZFSEError) -> UInt8 {
    guard state < entries.count else { throw LZFSEError(at: 0, "a state past its table") }
    let entry = entries[state]
    state = Int(entry.delta) + Int(try bits.take(Int(entry.stateBits)))
    return entry.symbol
  }

  /// The value at `state` (its symbol's base plus its extra bits), which moves on to the next
  /// state.
  func value(_ state: inout Int, _ bits: inout FSEBackwardBits) throws(LZFSEError) -> Int {
    guard state < entries.count else { throw LZFSEError(at: 0, "a state past its table") }
    let entry = entries[state]
    let read = try bits.take(Int(entry.stateBits) + Int(entry.valueBits))
    state = Int(entry.delta) + Int(read >> UInt64(entry.valueBits))
    return Int(entry.base) + Int(read & ((1 << UInt64(entry.valueBits)) - 1))
  }
}

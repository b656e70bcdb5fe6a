import Synchronization

/// Values held under a byte bound, the least recently used let go first: Jobe's file cache and the
/// function tests' values a grade read again.
public final class LeastRecentlyUsed<Key: Hashable & Sendable, Value: Sendable>: Sendable {
  private struct Entry {
    var value: Value
    var bytes: Int
    var lastUse: UInt64
  }

  private struct State {
    var entries: [Key: Entry] = [:]
    var bytes = 0
    var clock: UInt64 = 0
  }

  /// The most bytes held at once, as the callers count them.
  public let capacityBytes: Int
  private let state = Mutex(State())

  public init(capacityBytes: Int) {
    self.capacityBytes = capacityBytes
  }

  /// Stores (or replaces) `key`; false when `bytes` alone is over the bound.
  public func put(_ key: Key, _ value: Value, bytes: Int) -> Bool {
    guard bytes <= capacityBytes else { return false }
    state.withLock { state in
      state.clock += 1
      if let old = state.entries.removeValue(forKey: key) { state.bytes -= old.bytes }
      if state.bytes + bytes > capacityBytes {
        // Down to 90 % at once, oldest first: one sort pays for many puts, where letting one entry
        // go per put would scan every entry each time.
        let target = capacityBytes - capacityBytes / 10 - bytes
        for (oldKey, entry) in state.entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
          if state.bytes <= target { break }
          state.bytes -= entry.bytes
          state.entries.removeValue(forKey: oldKey)
        }
      }
      state.entries[key] = Entry(value: value, bytes: bytes, lastUse: state.clock)
      state.bytes += bytes
    }
    return true
  }

  /// The value, marked as just used; nil when it is not (or no longer) held.
  public func get(_ key: Key) -> Value? {
    state.withLock { state in
      guard var entry = state.entries[key] else { return nil }
      state.clock += 1
      entry.lastUse = state.clock
      state.entries[key] = entry
      return entry.value
    }
  }

  /// Bytes held now.
  public var heldBytes: Int { state.withLock { $0.bytes } }
}

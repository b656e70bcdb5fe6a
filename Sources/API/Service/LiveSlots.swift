import Synchronization

/// The live slots: live runs at once, counted apart from the box slots.
final class LiveSlots: Sendable {
  let limit: Int
  private let used = Mutex(0)

  init(limit: Int) { self.limit = max(1, limit) }

  var inUse: Int { used.withLock { $0 } }

  /// Takes a slot; false when all are taken.
  func acquire() -> Bool {
    used.withLock { count in
      guard count < limit else { return false }
      count += 1
      return true
    }
  }

  func release() { used.withLock { $0 -= 1 } }
}

import Synchronization

/// The submissions this daemon recorded done lately, kept in memory so that a `GET` of one (the
/// poll that sees it finished, often the very next) is answered without the store.
///
/// Only what the store has already committed as done is remembered (`record` said it was recorded,
/// or `insertDone` returned), and done is final, so a remembered answer never disagrees with the
/// store: a cancelled job was never recorded done, and one recorded is never cancelled after. A
/// submission another daemon recorded is not here, and its `GET` reads the store as before.
/// Entries are forgotten after `keepMilliseconds` (no longer than the store's retention, so nothing
/// purged is answered from here) or when `capacity` newer ones came after them.
public final class RecentResults: Sendable {
  /// Entries at most; the oldest goes first.
  public let capacity: Int
  /// How long after it finished an entry is answered from here, milliseconds.
  public let keepMilliseconds: Int64

  private struct Entry {
    var record: SubmissionRecord
    var owner: String
  }

  private struct State {
    var entries: [String: Entry] = [:]
    /// Ids in the order remembered, a ring of `capacity`: the slot to fill next is `next`.
    var order: [String?]
    var next = 0
    var hits: UInt64 = 0
  }

  private let state: Mutex<State>

  /// `keepMilliseconds` should not pass the store's retention.
  public init(capacity: Int = 4096, keepMilliseconds: Int64) {
    self.capacity = max(1, capacity)
    self.keepMilliseconds = max(0, keepMilliseconds)
    state = Mutex(State(order: Array(repeating: nil, count: max(1, capacity))))
  }

  /// Remembers `record`, which the store holds done for `owner`; anything else is ignored.
  public func remember(_ record: SubmissionRecord, owner: String) {
    guard record.state == .done, record.finishedMilliseconds != nil else { return }
    state.withLock { state in
      if state.entries[record.id] == nil {
        if let evicted = state.order[state.next] { state.entries.removeValue(forKey: evicted) }
        state.order[state.next] = record.id
        state.next = (state.next + 1) % capacity
      }
      state.entries[record.id] = Entry(record: record, owner: owner)
    }
  }

  /// The remembered records among `ids` that belong to `owner` and finished less than
  /// `keepMilliseconds` before `now`, and the ids to ask the store about.
  public func lookup(_ ids: [String], owner: String, now: Int64) -> (found: [SubmissionRecord], missing: [String]) {
    state.withLock { state in
      var found: [SubmissionRecord] = []
      var missing: [String] = []
      for id in ids {
        if let entry = state.entries[id], entry.owner == owner,
          let finished = entry.record.finishedMilliseconds, now - finished < keepMilliseconds
        {
          found.append(entry.record)
        } else {
          missing.append(id)
        }
      }
      state.hits += UInt64(found.count)
      return (found, missing)
    }
  }

  /// Records answered from here so far (`/metrics`).
  public var hits: UInt64 { state.withLock { $0.hits } }
}

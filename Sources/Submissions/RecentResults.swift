import Synchronization

/// The submissions this daemon recorded done lately, kept in memory so that a `GET` of one (the
/// poll that sees it finished, often the very next) is answered without the store.
///
/// Only what the store has already committed as done is remembered (`record` said it was recorded,
/// or `insertDone` returned), and done is final, so a remembered answer never disagrees with the
/// store: a cancelled job was never recorded done, and one recorded is never cancelled after. A
/// submission another daemon recorded is not here, and its `GET` reads the store as before.
/// Entries are forgotten after `keepMilliseconds` (no longer than the store's retention, so nothing
/// purged is answered from here), or, oldest first, when `capacity` newer ones came after them or
/// the results kept pass `maximumBytes`: a result of control characters is tens of MB of JSON, and
/// a count alone let a few thousand of them hold gigabytes. A result larger than a quarter of the
/// bound is not kept at all (its `GET` reads the store).
public final class RecentResults: Sendable {
  /// Entries at most; the oldest goes first.
  public let capacity: Int
  /// Bytes of results (and a little per entry) at most; the oldest go first.
  public let maximumBytes: Int
  /// How long after it finished an entry is answered from here, milliseconds.
  public let keepMilliseconds: Int64
  /// What an entry costs beside its result's bytes: its id, owner and record.
  static let entryOverheadBytes = 256

  private struct Entry {
    var record: SubmissionRecord
    var owner: String
    var bytes: Int
    /// Which remembering this is: an id remembered again has a newer place in `order`.
    var sequence: Int
  }

  private struct State {
    var entries: [String: Entry] = [:]
    /// Ids in the order remembered from `head` on, each with its remembering's sequence (some
    /// forgotten or remembered again since); earlier ones are gone.
    var order: [(id: String, sequence: Int)] = []
    var head = 0
    var sequence = 0
    var bytes = 0
    var hits: UInt64 = 0
  }

  private let state = Mutex(State())

  /// `keepMilliseconds` should not pass the store's retention.
  public init(capacity: Int = 4096, maximumBytes: Int = 64 << 20, keepMilliseconds: Int64) {
    self.capacity = max(1, capacity)
    self.maximumBytes = max(0, maximumBytes)
    self.keepMilliseconds = max(0, keepMilliseconds)
  }

  /// Remembers `record`, which the store holds done for `owner`; anything else is ignored.
  public func remember(_ record: SubmissionRecord, owner: String) {
    guard record.state == .done, record.finishedMilliseconds != nil else { return }
    let bytes = (record.result?.count ?? 0) + Self.entryOverheadBytes
    state.withLock { state in
      if let old = state.entries.removeValue(forKey: record.id) { state.bytes -= old.bytes }
      guard bytes <= maximumBytes / 4 else { return }
      while state.entries.count >= capacity || state.bytes + bytes > maximumBytes, state.head < state.order.count {
        let oldest = state.order[state.head]
        if state.entries[oldest.id]?.sequence == oldest.sequence,
          let evicted = state.entries.removeValue(forKey: oldest.id)
        {
          state.bytes -= evicted.bytes
        }
        state.head += 1
      }
      // Places already let go of are dropped once they are most of the list (amortized).
      if state.head > capacity {
        state.order = state.order[state.head...].filter { state.entries[$0.id]?.sequence == $0.sequence }
        state.head = 0
      }
      state.sequence += 1
      state.entries[record.id] = Entry(record: record, owner: owner, bytes: bytes, sequence: state.sequence)
      state.order.append((record.id, state.sequence))
      state.bytes += bytes
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
  /// Bytes kept now (results and per-entry overhead).
  public var bytes: Int { state.withLock { $0.bytes } }
  /// Entries kept now.
  public var count: Int { state.withLock { $0.entries.count } }
  /// Ids in the order list now, forgotten ones included (tests: it must not grow with the records seen).
  var trackedCount: Int { state.withLock { $0.order.count - $0.head } }
}

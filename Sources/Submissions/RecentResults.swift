import Synchronization

/// The submissions this daemon recorded done lately, kept in memory so that a `GET` of one (the
/// poll that sees it finished, often the very next) is answered without the store.
///
/// Only what the store has already committed as done is remembered (`record` said it was recorded,
/// or `insertDone` returned), and done is final, so a remembered answer never disagrees with the
/// store: a cancelled job was never recorded done, and one recorded is never cancelled after. A
/// submission another daemon recorded is not here, and its `GET` reads the store as before.
/// Entries are forgotten after `keepMilliseconds` (no longer than the store's retention, so nothing
/// purged is answered from here) or when newer ones push them out: past `capacity` entries, or past
/// `maximumBytes` of results. A result is kept whole or not at all, and one larger than
/// `maximumEntryBytes` not at all: its poll reads the store, which costs one read of a result that
/// is rare, where keeping it would push out many of the small ones.
public final class RecentResults: Sendable {
  /// Entries at most; the oldest goes first.
  public let capacity: Int
  /// The entries' bytes at most (`entryBytes`); the oldest go first. Results of control-character
  /// output are tens of MB of JSON each: the count alone kept gigabytes.
  public let maximumBytes: Int
  /// The largest entry kept (`entryBytes`): a quarter of `maximumBytes`, so one entry never pushes
  /// out more than a quarter of the others.
  public let maximumEntryBytes: Int
  /// How long after it finished an entry is answered from here, milliseconds.
  public let keepMilliseconds: Int64

  /// What an entry holds besides its result, bytes: the record and owner, the id twice (the table's
  /// key and the ring's), and the table's slot. An estimate that errs high, so that a flood of
  /// empty results is bounded too.
  public static let entryOverheadBytes = 256

  /// What an entry of `record` counts towards `maximumBytes`.
  public static func entryBytes(_ record: SubmissionRecord) -> Int {
    (record.result?.count ?? 0) + entryOverheadBytes
  }

  private struct Entry {
    var record: SubmissionRecord
    var owner: String
    var bytes: Int
  }

  private struct State {
    var entries: [String: Entry] = [:]
    /// Ids in the order remembered, a ring of `capacity`: the oldest at `first`, `entries.count` of
    /// them. Every id in it has an entry and every entry is in it once.
    var order: [String?]
    var first = 0
    var bytes = 0
    var hits: UInt64 = 0

    mutating func evictOldest(capacity: Int) {
      guard let id = order[first] else { return }
      order[first] = nil
      first = (first + 1) % capacity
      if let entry = entries.removeValue(forKey: id) { bytes -= entry.bytes }
    }
  }

  private let state: Mutex<State>

  /// `keepMilliseconds` should not pass the store's retention.
  public init(capacity: Int = 4096, maximumBytes: Int = 64 << 20, keepMilliseconds: Int64) {
    self.capacity = max(1, capacity)
    self.maximumBytes = max(0, maximumBytes)
    maximumEntryBytes = self.maximumBytes / 4
    self.keepMilliseconds = max(0, keepMilliseconds)
    state = Mutex(State(order: Array(repeating: nil, count: max(1, capacity))))
  }

  /// Remembers `record`, which the store holds done for `owner`; anything else is ignored, and so
  /// is a record larger than `maximumEntryBytes`.
  public func remember(_ record: SubmissionRecord, owner: String) {
    guard record.state == .done, record.finishedMilliseconds != nil else { return }
    let bytes = Self.entryBytes(record)
    guard bytes <= maximumEntryBytes else { return }
    state.withLock { state in
      if let known = state.entries[record.id] {
        // Done is final, so this is the same result again: it keeps its place in the ring.
        state.bytes += bytes - known.bytes
        state.entries[record.id] = Entry(record: record, owner: owner, bytes: bytes)
      } else {
        if state.entries.count == capacity { state.evictOldest(capacity: capacity) }
        state.order[(state.first + state.entries.count) % capacity] = record.id
        state.entries[record.id] = Entry(record: record, owner: owner, bytes: bytes)
        state.bytes += bytes
      }
      while state.bytes > maximumBytes && !state.entries.isEmpty { state.evictOldest(capacity: capacity) }
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
  /// The entries' bytes now (`entryBytes`), at most `maximumBytes`.
  public var bytes: Int { state.withLock { $0.bytes } }
  /// Entries now, at most `capacity`.
  public var count: Int { state.withLock { $0.entries.count } }
}

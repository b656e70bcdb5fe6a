import Foundation
import Synchronization

/// Jobe's file cache (`PUT`/`HEAD /files/{id}`), held in memory under a byte bound, least recently
/// used first out.
///
/// In memory rather than on disk: the files are small support files (CodeRunner's data files and
/// Java classes), a run reads them from here into its box without a disk round trip, and Jobe's
/// contract lets a cache lose any file at any time (a run naming a missing file gets 404, and
/// CodeRunner then PUTs its files again and retries), so a restart that empties it costs one retry.
/// Ids are kept apart per bearer token: a PUT overwrites without a content check, so a shared
/// namespace would let one tenant swap the file another tenant's runs read.
final class JobeFileCache: Sendable {
  private struct Entry {
    var contents: Data
    var lastUse: UInt64
  }

  private struct State {
    var entries: [String: Entry] = [:]
    var bytes = 0
    var clock: UInt64 = 0
  }

  /// The most bytes held at once: each file's contents plus `entryOverheadBytes`, so a flood of
  /// empty files is bounded too.
  let capacityBytes: Int
  let entryOverheadBytes: Int
  private let state = Mutex(State())

  init(capacityBytes: Int, entryOverheadBytes: Int = 256) {
    self.capacityBytes = capacityBytes
    self.entryOverheadBytes = entryOverheadBytes
  }

  private static func key(_ id: String, owner: String) -> String { owner + "/" + id }

  /// Stores (or replaces) `id`; false when the file alone is over the bound.
  func put(_ id: String, owner: String, contents: Data) -> Bool {
    let size = contents.count + entryOverheadBytes
    guard size <= capacityBytes else { return false }
    let key = Self.key(id, owner: owner)
    state.withLock { state in
      state.clock += 1
      if let old = state.entries.removeValue(forKey: key) { state.bytes -= old.contents.count + entryOverheadBytes }
      if state.bytes + size > capacityBytes {
        // Down to 90 % at once, oldest first: one sort pays for many PUTs, where evicting one file
        // per PUT would scan every entry each time.
        let target = capacityBytes - capacityBytes / 10 - size
        for (oldKey, entry) in state.entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
          if state.bytes <= target { break }
          state.bytes -= entry.contents.count + entryOverheadBytes
          state.entries.removeValue(forKey: oldKey)
        }
      }
      state.entries[key] = Entry(contents: contents, lastUse: state.clock)
      state.bytes += size
    }
    return true
  }

  /// The file's contents, marked as just used; nil when it is not (or no longer) held.
  func get(_ id: String, owner: String) -> Data? {
    let key = Self.key(id, owner: owner)
    return state.withLock { state in
      guard var entry = state.entries[key] else { return nil }
      state.clock += 1
      entry.lastUse = state.clock
      state.entries[key] = entry
      return entry.contents
    }
  }

  /// Whether `id` is held (HEAD), which counts as a use: CodeRunner HEADs a file before the run that
  /// reads it.
  func contains(_ id: String, owner: String) -> Bool { get(id, owner: owner) != nil }

  /// Bytes held now, overheads included.
  var bytes: Int { state.withLock { $0.bytes } }
}

import Foundation
import Testing

@testable import Submissions

/// The memory of recent results: only done records, only to their owner, only while they are fresh,
/// at most `capacity` of them and `maximumBytes` of their results.
@Suite struct RecentResultsTests {
  func done(_ id: String, finished: Int64) -> SubmissionRecord {
    SubmissionRecord(
      id: id, kind: .execute, state: .done, createdMilliseconds: finished - 5, finishedMilliseconds: finished,
      result: Data("{\"id\":\"\(id)\"}".utf8), resultIsError: false)
  }

  /// A done record whose result is `bytes` long.
  func done(_ id: String, bytes: Int) -> SubmissionRecord {
    var record = done(id, finished: 100)
    record.result = Data(repeating: UInt8(ascii: "x"), count: bytes)
    return record
  }

  @Test func aDoneRecordIsShownToItsOwnerOnly() {
    let recent = RecentResults(keepMilliseconds: 1000)
    recent.remember(done("a", finished: 100), owner: "alice")
    let mine = recent.lookup(["a", "b"], owner: "alice", now: 200)
    #expect(mine.found == [done("a", finished: 100)] && mine.missing == ["b"])
    // Another owner asks the store, which will not show it either.
    let theirs = recent.lookup(["a"], owner: "bob", now: 200)
    #expect(theirs.found.isEmpty && theirs.missing == ["a"])
    #expect(recent.hits == 1)
  }

  @Test func onlyDoneRecordsAreRemembered() {
    let recent = RecentResults(keepMilliseconds: 1000)
    for state in [SubmissionState.queued, .running, .cancelled] {
      var record = done("x-\(state.rawValue)", finished: 100)
      record.state = state
      recent.remember(record, owner: "")
      #expect(recent.lookup([record.id], owner: "", now: 150).found.isEmpty, "\(state)")
    }
  }

  @Test func anEntryIsForgottenOnceItIsNoLongerFresh() {
    let recent = RecentResults(keepMilliseconds: 1000)
    recent.remember(done("a", finished: 100), owner: "")
    #expect(recent.lookup(["a"], owner: "", now: 1099).found.count == 1)
    // From then on the store answers (or, past its retention, has purged it: so must memory).
    #expect(recent.lookup(["a"], owner: "", now: 1100).missing == ["a"])
  }

  @Test func theOldestGoesFirstPastTheCapacity() {
    let recent = RecentResults(capacity: 2, keepMilliseconds: 1000)
    for id in ["a", "b", "c"] { recent.remember(done(id, finished: 100), owner: "") }
    let looked = recent.lookup(["a", "b", "c"], owner: "", now: 100)
    #expect(looked.found.map(\.id) == ["b", "c"] && looked.missing == ["a"])
    // Remembering one again does not take a second place.
    recent.remember(done("c", finished: 101), owner: "")
    recent.remember(done("d", finished: 100), owner: "")
    #expect(recent.lookup(["b", "c", "d"], owner: "", now: 100).found.map(\.id) == ["c", "d"])
  }

  @Test func aCountBoundHoldsTheBytesOfWhatItKeeps() {
    let recent = RecentResults(capacity: 2, keepMilliseconds: 1000)
    #expect(recent.maximumBytes == 64 << 20 && recent.maximumEntryBytes == 16 << 20)
    for id in ["a", "b", "c"] { recent.remember(done(id, finished: 100), owner: "") }
    #expect(recent.count == 2)
    #expect(recent.bytes == RecentResults.entryBytes(done("b", finished: 100)) * 2)
    // The same record again counts once.
    recent.remember(done("c", finished: 100), owner: "")
    #expect(recent.count == 2 && recent.bytes == RecentResults.entryBytes(done("b", finished: 100)) * 2)
  }

  @Test func resultsOfAMegabyteEachNeverHoldMoreThanTheByteBound() {
    let megabyte = 1 << 20
    let recent = RecentResults(maximumBytes: 8 * megabyte, keepMilliseconds: 1000)
    let perEntry = megabyte + RecentResults.entryOverheadBytes
    for index in 0..<50 {
      recent.remember(done("r\(index)", bytes: megabyte), owner: "")
      #expect(recent.bytes <= 8 * megabyte, "after \(index + 1)")
      #expect(recent.bytes == recent.count * perEntry)
    }
    // As many as fit, the newest: the older ones went first, far below the count's 4096.
    let kept = (8 * megabyte) / perEntry
    #expect(recent.count == kept)
    let looked = recent.lookup((0..<50).map { "r\($0)" }, owner: "", now: 100)
    #expect(looked.found.map(\.id) == (50 - kept..<50).map { "r\($0)" })
    #expect(looked.missing == (0..<50 - kept).map { "r\($0)" })
    // Small ones fit in the room the large ones left, pushing none out.
    for index in 0..<10 { recent.remember(done("s\(index)", finished: 100), owner: "") }
    #expect(recent.count == kept + 10 && recent.bytes <= 8 * megabyte)
  }

  @Test func aResultOverTheEntryBoundIsNotKeptAndItsPollReadsTheStore() {
    let recent = RecentResults(maximumBytes: 4 << 20, keepMilliseconds: 1000)
    #expect(recent.maximumEntryBytes == 1 << 20)
    recent.remember(done("small", finished: 100), owner: "alice")
    let fits = (1 << 20) - RecentResults.entryOverheadBytes
    recent.remember(done("fits", bytes: fits), owner: "alice")
    recent.remember(done("large", bytes: fits + 1), owner: "alice")
    let looked = recent.lookup(["small", "fits", "large"], owner: "alice", now: 150)
    #expect(looked.found.map(\.id) == ["small", "fits"] && looked.missing == ["large"])
    #expect(recent.count == 2 && recent.hits == 2)
    // Nothing that was kept made room for it.
    #expect(recent.bytes == RecentResults.entryBytes(done("small", finished: 100)) + (1 << 20))
  }
}

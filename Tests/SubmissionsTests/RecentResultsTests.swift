import Foundation
import Testing

@testable import Submissions

/// The memory of recent results: only done records, only to their owner, only while they are fresh,
/// and at most `capacity` of them.
@Suite struct RecentResultsTests {
  func done(_ id: String, finished: Int64) -> SubmissionRecord {
    SubmissionRecord(
      id: id, kind: .execute, state: .done, createdMilliseconds: finished - 5, finishedMilliseconds: finished,
      result: Data("{\"id\":\"\(id)\"}".utf8), resultIsError: false)
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

  @Test func resultsAreKeptWithinTheByteBound() {
    let recent = RecentResults(maximumBytes: 8 << 20, keepMilliseconds: 1000)
    var kept: [String] = []
    for index in 0..<40 {
      var record = done("r\(index)", finished: 100)
      record.result = Data(repeating: 0x41, count: 1 << 20)
      recent.remember(record, owner: "")
      kept.append(record.id)
      #expect(recent.bytes <= 8 << 20, "after \(index + 1): \(recent.bytes) bytes")
    }
    // The newest are the ones kept, about as many as fit.
    let looked = recent.lookup(kept, owner: "", now: 100)
    #expect(looked.found.count == 7, "\(looked.found.count)")
    #expect(looked.found.map(\.id) == Array(kept.suffix(7)))
    // The list of places does not grow with the results seen.
    #expect(recent.trackedCount <= 2 * recent.capacity)
  }

  @Test func aResultOverAQuarterOfTheBoundIsLeftToTheStore() {
    let recent = RecentResults(maximumBytes: 4 << 20, keepMilliseconds: 1000)
    var large = done("large", finished: 100)
    large.result = Data(repeating: 0, count: 1 << 20)
    recent.remember(large, owner: "")
    #expect(recent.lookup(["large"], owner: "", now: 100).missing == ["large"])
    #expect(recent.bytes == 0)
  }

  @Test func aResultRememberedAgainKeepsItsNewPlace() {
    let recent = RecentResults(capacity: 2, keepMilliseconds: 1000)
    recent.remember(done("a", finished: 100), owner: "")
    recent.remember(done("b", finished: 100), owner: "")
    recent.remember(done("a", finished: 101), owner: "")
    recent.remember(done("c", finished: 100), owner: "")
    // b was the oldest place; a's first place is stale and evicts nothing.
    #expect(recent.lookup(["a", "b", "c"], owner: "", now: 100).found.map(\.id) == ["a", "c"])
  }
}

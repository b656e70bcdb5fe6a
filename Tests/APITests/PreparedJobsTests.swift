import Testing

@testable import API

/// The jobs kept from submit to run: taken once, the oldest dropped past the count or the bytes.
@Suite struct PreparedJobsTests {
  @Test func aJobIsTakenOnce() {
    let jobs = PreparedJobs<String>(capacity: 4, maximumBytes: 100)
    jobs.keep("a body", id: "a", bytes: 10)
    #expect(jobs.take("a") == "a body")
    #expect(jobs.take("a") == nil && jobs.take("never kept") == nil)
    #expect(jobs.count == 0)
  }

  @Test func theOldestGoPastTheCountOrTheBytes() {
    let jobs = PreparedJobs<String>(capacity: 2, maximumBytes: 100)
    for id in ["a", "b", "c"] { jobs.keep(id, id: id, bytes: 10) }
    #expect(jobs.take("a") == nil && jobs.take("b") == "b" && jobs.take("c") == "c")
    jobs.keep("d", id: "d", bytes: 60)
    jobs.keep("e", id: "e", bytes: 60)
    #expect(jobs.take("d") == nil && jobs.take("e") == "e")
    // One larger than the whole bound is not kept (the worker reads the store), and drops nothing.
    jobs.keep("f", id: "f", bytes: 10)
    jobs.keep("huge", id: "huge", bytes: 101)
    #expect(jobs.take("huge") == nil && jobs.take("f") == "f")
  }

  @Test func manyJobsTakenOrDroppedLeaveNothingBehind() {
    let jobs = PreparedJobs<Int>(capacity: 8, maximumBytes: 1 << 20)
    for index in 0..<10_000 {
      jobs.keep(index, id: "\(index)", bytes: 1)
      #expect(jobs.take("\(index)") == index)
    }
    #expect(jobs.count == 0 && jobs.trackedCount <= 3 * 8 + 1)
    // Nor do many dropped ones.
    for index in 0..<10_000 { jobs.keep(index, id: "k\(index)", bytes: 1) }
    #expect(jobs.count == 8 && jobs.trackedCount <= 3 * 8 + 1)
    #expect(jobs.take("k9992") == 9992 && jobs.take("k9991") == nil)
  }
}

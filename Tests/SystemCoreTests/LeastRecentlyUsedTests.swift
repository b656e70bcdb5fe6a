import SystemCore
import Testing

@Suite struct LeastRecentlyUsedTests {
  @Test func theLeastRecentlyUsedGoFirstAndTheBoundHolds() {
    let recent = LeastRecentlyUsed<String, Int>(capacityBytes: 100)
    #expect(recent.put("first", 1, bytes: 40))
    #expect(recent.put("second", 2, bytes: 40))
    #expect(recent.get("first") == 1)  // first is now the more recently used
    #expect(recent.put("third", 3, bytes: 40))
    #expect(recent.heldBytes == 80)
    #expect(recent.get("second") == nil, "the least recently used went")
    #expect(recent.get("first") == 1 && recent.get("third") == 3)
    #expect(!recent.put("huge", 4, bytes: 101), "a value over the whole bound is never kept")
    #expect(recent.heldBytes == 80)
    #expect(recent.put("first", 5, bytes: 10), "a replacement counts its new size only")
    #expect(recent.heldBytes == 50 && recent.get("first") == 5)
  }
}

import Glibc
import SystemCore
import Testing

/// Whether `descriptor` is open in this process.
private func isOpen(_ descriptor: Int32) -> Bool {
  fcntl(descriptor, F_GETFD) >= 0
}

private func makePipe() throws -> OwnedPair {
  var descriptors: [Int32] = [-1, -1]
  try #require(pipe(&descriptors) == 0)
  return OwnedPair(descriptors)
}

@Suite struct OwnedDescriptorTests {
  @Test func closesWhenItsOwnerLetsGo() throws {
    var pair: OwnedPair? = try makePipe()
    let (read, write) = (pair!.read.rawValue, pair!.write.rawValue)
    #expect(isOpen(read) && isOpen(write))
    pair = nil
    #expect(!isOpen(read) && !isOpen(write))
  }

  @Test func closeIsIdempotent() throws {
    let pair = try makePipe()
    let read = pair.read.rawValue
    pair.read.close()
    #expect(!pair.read.isOpen && pair.read.rawValue == -1 && !isOpen(read))
    // A descriptor opened in between may reuse the number; closing again must not touch it.
    let other = try makePipe()
    pair.read.close()
    #expect(isOpen(other.read.rawValue) && isOpen(other.write.rawValue))
  }

  @Test func takenDescriptorStaysOpenForItsNewOwner() throws {
    var pair: OwnedPair? = try makePipe()
    let taken = pair!.write.take()
    #expect(pair!.write.rawValue == -1 && !pair!.write.isOpen)
    pair = nil
    #expect(isOpen(taken))
    close(taken)
  }
}

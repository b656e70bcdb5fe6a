import Glibc
import SystemCore
import Testing

// Every test target runs in one process, in parallel: a closed descriptor's number may be taken
// by another test at once, so "closed" is seen from the peer of a socket pair (end of input),
// never by asking whether a number is open.

private enum PeerState: Equatable { case open, closed }

/// A connected socket pair: one end owned by an `OwnedDescriptor`, the other (`peer`) raw.
private func makePair() throws -> (owned: OwnedDescriptor, peer: Int32) {
  var descriptors: [Int32] = [-1, -1]
  try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &descriptors) == 0)
  return (OwnedDescriptor(descriptors[0]), descriptors[1])
}

/// What `peer` sees of its other end: end of input once it is closed.
private func otherEnd(of peer: Int32) -> PeerState {
  var byte: UInt8 = 0
  let count = recv(peer, &byte, 1, Int32(MSG_DONTWAIT))
  return count == 0 ? .closed : .open
}

@Suite struct OwnedDescriptorTests {
  @Test func closesWhenItsOwnerLetsGo() throws {
    var (owned, peer): (OwnedDescriptor?, Int32) = try makePair()
    defer { close(peer) }
    #expect(owned!.isOpen)
    #expect(otherEnd(of: peer) == .open)
    owned = nil
    #expect(otherEnd(of: peer) == .closed)
  }

  @Test func closeIsIdempotent() throws {
    let (owned, peer) = try makePair()
    defer { close(peer) }
    owned.close()
    #expect(!owned.isOpen && owned.rawValue == -1)
    #expect(otherEnd(of: peer) == .closed)
    // A descriptor opened in between may reuse the number; closing again must not touch it.
    let (other, otherPeer) = try makePair()
    defer { close(otherPeer) }
    owned.close()
    #expect(other.isOpen)
    #expect(otherEnd(of: otherPeer) == .open)
  }

  @Test func takenDescriptorStaysOpenForItsNewOwner() throws {
    var (owned, peer): (OwnedDescriptor?, Int32) = try makePair()
    defer { close(peer) }
    let taken = owned!.take()
    #expect(owned!.rawValue == -1 && !owned!.isOpen)
    owned = nil
    #expect(otherEnd(of: peer) == .open)
    close(taken)
    #expect(otherEnd(of: peer) == .closed)
  }

  @Test func pairOwnsTheEndsItWasGiven() throws {
    var descriptors: [Int32] = [-1, -1]
    try #require(
      socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &descriptors) == 0)
    let pair = OwnedPair(descriptors)
    #expect(pair.read.rawValue == descriptors[0] && pair.write.rawValue == descriptors[1])
    #expect(otherEnd(of: pair.write.rawValue) == .open)
    pair.read.close()
    #expect(otherEnd(of: pair.write.rawValue) == .closed)
  }
}

import Glibc

/// A file descriptor that closes itself: when its owner lets go of it, or at `close()`.
///
/// Ownership moves with the object, never by copying the number and setting the old place to
/// -1: whoever holds the `OwnedDescriptor` owns the descriptor. `take()` is the one explicit way
/// out, for a descriptor that goes on to code that closes it itself (a child, a C library).
/// Not `Sendable`: one thread owns it at a time.
public final class OwnedDescriptor {
  private var descriptor: Int32

  /// Takes ownership of `descriptor` (a negative value is an already closed one).
  public init(_ descriptor: Int32) {
    self.descriptor = descriptor
  }

  /// The descriptor, to pass to a system call; -1 once closed or taken.
  public var rawValue: Int32 { descriptor }

  /// Whether it is still open and owned here.
  public var isOpen: Bool { descriptor >= 0 }

  /// Closes it now; closing again does nothing.
  public func close() {
    guard descriptor >= 0 else { return }
    // Linux frees the descriptor even when close reports EINTR or EIO, so it is never retried.
    _ = Glibc.close(descriptor)
    descriptor = -1
  }

  /// Gives the descriptor up without closing it: the caller owns it from now on.
  public func take() -> Int32 {
    defer { descriptor = -1 }
    return descriptor
  }

  deinit { close() }
}

/// Two ends of a pipe or socket pair, each owned.
public struct OwnedPair {
  /// The end read from (for a socket pair: the first).
  public let read: OwnedDescriptor
  /// The end written to (for a socket pair: the second).
  public let write: OwnedDescriptor

  /// The pair of `read` and `write`.
  public init(read: OwnedDescriptor, write: OwnedDescriptor) {
    self.read = read
    self.write = write
  }

  /// Owns `descriptors[0]` and `descriptors[1]`, as pipe2(2) and socketpair(2) fill them.
  public init(_ descriptors: [Int32]) {
    read = OwnedDescriptor(descriptors[0])
    write = OwnedDescriptor(descriptors[1])
  }
}

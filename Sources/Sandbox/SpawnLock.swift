import Glibc

/// Keeps box files that are open for writing out of new boxes (Go's syscall.ForkLock, for the same
/// reason).
///
/// A box's init is cloned from this multi-threaded process and inherits every descriptor open at that
/// moment until it closes them, a few microseconds later. If another thread is writing a program into
/// its own box just then (`/box/main` restored from the compile cache), the clone holds a copy of that
/// write descriptor, and the other box's `execve /box/main` fails with ETXTBSY. Writers share the
/// lock; a clone takes it alone, so no write descriptor exists when it happens. Before this lock, 2
/// of 40 parallel Go grades on a loaded host failed this way.
public enum SpawnLock {
  private final class Storage: @unchecked Sendable {
    let lock: UnsafeMutablePointer<pthread_rwlock_t>

    init() {
      lock = .allocate(capacity: 1)
      var attributes = pthread_rwlockattr_t()
      pthread_rwlockattr_init(&attributes)
      // Clones are rare next to file writes; without this a steady stream of writers could starve them.
      pthread_rwlockattr_setkind_np(&attributes, Int32(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP))
      pthread_rwlock_init(lock, &attributes)
      pthread_rwlockattr_destroy(&attributes)
    }
  }

  private static let storage = Storage()

  /// Runs `body`, which opens, writes and closes box files, while no box is being cloned.
  public static func whileWritingFiles<Value, Failure: Error>(_ body: () throws(Failure) -> Value) throws(Failure)
    -> Value
  {
    pthread_rwlock_rdlock(storage.lock)
    defer { pthread_rwlock_unlock(storage.lock) }
    return try body()
  }

  /// Runs `body`, which clones a box, while no box file is open for writing.
  static func whileCloning<Value>(_ body: () -> Value) -> Value {
    pthread_rwlock_wrlock(storage.lock)
    defer { pthread_rwlock_unlock(storage.lock) }
    return body()
  }
}

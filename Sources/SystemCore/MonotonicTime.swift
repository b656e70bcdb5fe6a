import Glibc

// CLOCK_MONOTONIC, read directly: the box's wall-clock limits and timings are taken on the hot
// path of every run, where a plain integer is all that is needed.

/// Microseconds on the monotonic clock (not wall time: unaffected by clock changes).
public func monotonicMicroseconds() -> UInt64 {
  var now = timespec()
  clock_gettime(CLOCK_MONOTONIC, &now)
  return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
}

/// Milliseconds on the monotonic clock.
public func monotonicMilliseconds() -> UInt64 {
  monotonicMicroseconds() / 1000
}

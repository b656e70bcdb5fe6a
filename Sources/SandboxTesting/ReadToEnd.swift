import Foundation
import Glibc

extension FileHandle {
  /// Everything until end of file, a read that a signal interrupted retried. Foundation's
  /// `readDataToEndOfFile` traps on EINTR (its `try!`), and a test process takes signals with
  /// handlers at any time: a daemon's in-process signal sources (one full suite ended in that trap,
  /// in a helper's read of a child's stdout).
  public func readToEndRetryingInterrupts() -> Data {
    var data = Data()
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(fileDescriptor, $0.baseAddress, $0.count) }
      if count > 0 {
        data.append(contentsOf: chunk[0..<count])
      } else if count == 0 || errno != EINTR {
        return data
      }
    }
  }
}

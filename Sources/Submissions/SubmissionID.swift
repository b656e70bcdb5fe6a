internal import CRandom
import Glibc
import SystemCore

/// Submission ids: 128 bits from the kernel's random source (getrandom(2)), as 32 lowercase hex
/// digits. Knowing one id tells nothing about the next, so an id is as good as a capability on a
/// server without tokens.
public enum SubmissionID {
  /// The length of an id in characters.
  public static let length = 32

  /// A new id; throws only when the kernel has no randomness to give (never after early boot).
  public static func make() throws(StoreError) -> String {
    var bytes = [UInt8](repeating: 0, count: 16)
    var filled = 0
    while filled < bytes.count {
      let count = bytes.withUnsafeMutableBytes { buffer in
        getrandom(buffer.baseAddress! + filled, buffer.count - filled, 0)
      }
      if count < 0 {
        if errno == EINTR { continue }
        throw StoreError("getrandom", String(cString: strerror(errno)))
      }
      filled += count
    }
    return hexadecimal(bytes)
  }

  /// Whether `text` has the shape of an id (it may still name nothing).
  public static func isWellFormed(_ text: some StringProtocol) -> Bool {
    text.utf8.count == length && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
  }
}

internal import CCrypto
import Foundation

/// The digests submissions need, from libcrypto (Debian libssl-dev): the owner of a submission is
/// the SHA-256 of its bearer token, and webhook bodies are signed with HMAC-SHA256. Kept in this one
/// file so a shared digest module can take its place without touching the callers.
public enum Digests {
  /// SHA-256 of `data` as 64 lowercase hex digits.
  public static func sha256Hex(_ data: some DataProtocol) -> String {
    let bytes = Array(data)
    var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
    var length: UInt32 = 0
    let ok = bytes.withUnsafeBytes { input in
      EVP_Digest(input.baseAddress, input.count, &digest, &length, EVP_sha256(), nil)
    }
    // EVP_Digest fails only when libcrypto cannot allocate; an owner digest must never be empty.
    precondition(ok == 1, "EVP_Digest(SHA-256) failed")
    return SubmissionID.hex(Array(digest.prefix(Int(length))))
  }

  /// HMAC-SHA256 of `message` under `key` as 64 lowercase hex digits.
  public static func hmacSHA256Hex(key: some DataProtocol, message: some DataProtocol) -> String {
    let keyBytes = Array(key)
    let messageBytes = Array(message)
    var mac = [UInt8](repeating: 0, count: 32)
    var length = 0
    let result = keyBytes.withUnsafeBytes { keyBuffer in
      messageBytes.withUnsafeBytes { messageBuffer in
        EVP_Q_mac(
          nil, "HMAC", nil, "SHA256", nil, keyBuffer.baseAddress, keyBuffer.count,
          messageBuffer.baseAddress?.assumingMemoryBound(to: UInt8.self), messageBuffer.count, &mac, mac.count,
          &length)
      }
    }
    precondition(result != nil && length == 32, "EVP_Q_mac(HMAC-SHA256) failed")
    return SubmissionID.hex(mac)
  }
}

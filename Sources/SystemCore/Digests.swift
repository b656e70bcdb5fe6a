internal import CCrypto

// Digests from libcrypto (Debian libssl-dev, through the CCrypto module map): SHA-1 for the
// WebSocket handshake, SHA-256 for content addresses (compile cache, policy cache), HMAC-SHA256
// for signed webhooks, and base64. libcrypto's SHA-256 uses the processor's SHA extensions or
// vector code; the hand-written one it replaced hashed byte by byte.

/// An incremental SHA-256 (FIPS 180-4); `finalize()` gives the lower-case hex digest.
///
/// Not copyable: it owns libcrypto's context, freed when it goes away.
public struct SHA256: ~Copyable {
  private let context: OpaquePointer

  /// A hasher with nothing hashed yet.
  public init() {
    // Allocation is the only way these can fail; there is nothing to hash without memory.
    guard let context = EVP_MD_CTX_new() else { fatalError("EVP_MD_CTX_new: out of memory") }
    guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else { fatalError("EVP_DigestInit_ex(SHA-256) failed") }
    self.context = context
  }

  deinit { EVP_MD_CTX_free(context) }

  /// Adds `bytes`.
  public mutating func update(_ bytes: UnsafeRawBufferPointer) {
    guard let base = bytes.baseAddress, bytes.count > 0 else { return }
    _ = EVP_DigestUpdate(context, base, bytes.count)
  }

  /// Adds `bytes` (copied once when they are not contiguous).
  public mutating func update<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
    let done: Void? = bytes.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
    if done == nil { Array(bytes).withUnsafeBytes { update($0) } }
  }

  /// Adds the UTF-8 of `text`.
  public mutating func update(_ text: String) {
    var text = text
    text.withUTF8 { update(UnsafeRawBufferPointer($0)) }
  }

  /// Adds a length-prefixed field, so ("ab","c") and ("a","bc") differ.
  public mutating func updateField<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
    withUnsafeBytes(of: UInt64(bytes.count).bigEndian) { update($0) }
    update(bytes)
  }

  /// The digest of everything added, in lower-case hex (64 characters).
  public consuming func finalize() -> String {
    var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
    var length: UInt32 = 0
    _ = EVP_DigestFinal_ex(context, &digest, &length)
    return hexadecimal(digest)
  }

  /// The hex SHA-256 of `bytes`.
  public static func hex<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
    var hasher = SHA256()
    hasher.update(bytes)
    return hasher.finalize()
  }
}

/// One-shot digests and encodings.
public enum Digest {
  /// SHA-1 of `bytes` (20 bytes): only where a protocol requires it (RFC 6455's handshake).
  public static func sha1(_ bytes: [UInt8]) -> [UInt8] {
    var digest = [UInt8](repeating: 0, count: Int(SHA_DIGEST_LENGTH))
    _ = SHA1(bytes, bytes.count, &digest)
    return digest
  }

  /// SHA-256 of `bytes` (32 bytes).
  public static func sha256(_ bytes: [UInt8]) -> [UInt8] {
    var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
    _ = CCrypto.SHA256(bytes, bytes.count, &digest)
    return digest
  }

  /// HMAC-SHA256 (RFC 2104) of `message` under `key` (32 bytes).
  public static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
    var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
    var length: UInt32 = 0
    // An empty array may have no storage; HMAC takes a NULL key of length 0 as the empty key.
    _ = key.withUnsafeBytes { keyBytes in
      message.withUnsafeBytes { messageBytes in
        HMAC(
          EVP_sha256(), keyBytes.baseAddress, Int32(keyBytes.count),
          messageBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), messageBytes.count, &digest, &length)
      }
    }
    return digest
  }

  /// Standard base64 (RFC 4648 §4) with padding.
  public static func base64(_ bytes: [UInt8]) -> String {
    // EVP_EncodeBlock writes 4 bytes per 3 of input, plus a NUL.
    var encoded = [UInt8](repeating: 0, count: (bytes.count + 2) / 3 * 4 + 1)
    let length = EVP_EncodeBlock(&encoded, bytes, Int32(bytes.count))
    return String(decoding: encoded[..<Int(length)], as: UTF8.self)
  }
}

/// `bytes` as lower-case hexadecimal, two digits a byte.
public func hexadecimal(_ bytes: [UInt8]) -> String {
  let digits = Array("0123456789abcdef".utf8)
  var text: [UInt8] = []
  text.reserveCapacity(bytes.count * 2)
  for byte in bytes {
    text.append(digits[Int(byte >> 4)])
    text.append(digits[Int(byte & 0x0f)])
  }
  return String(decoding: text, as: UTF8.self)
}

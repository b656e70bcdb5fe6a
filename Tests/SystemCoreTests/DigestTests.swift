import SystemCore
import Testing

private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

private func bytes(hex: String) -> [UInt8] {
  let digits = Array(hex.utf8)
  return stride(from: 0, to: digits.count, by: 2).map {
    UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)!
  }
}

/// FIPS 180-2 appendix examples and the NIST CAVS "long message" of a million a's.
@Suite struct SHA256Tests {
  @Test(arguments: [
    ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    (
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    ),
    (
      "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
      "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
    ),
  ])
  func standardVectors(input: String, digest: String) {
    #expect(SHA256.hex(bytes(input)) == digest)
    #expect(hexadecimal(Digest.sha256(bytes(input))) == digest)
  }

  @Test func millionAs() {
    #expect(
      SHA256.hex([UInt8](repeating: 0x61, count: 1_000_000))
        == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  /// The same bytes in pieces of every size, including empty ones, give the one-shot digest.
  @Test func piecesGiveTheSameDigest() {
    let message = bytes("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
    for size in 1...message.count {
      var hasher = SHA256()
      hasher.update([UInt8]())
      for start in stride(from: 0, to: message.count, by: size) {
        hasher.update(message[start..<min(start + size, message.count)])
      }
      let digest = hasher.finalize()
      #expect(digest == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }
  }

  @Test func fieldsAreLengthPrefixed() {
    var first = SHA256()
    first.updateField(bytes("ab"))
    first.updateField(bytes("c"))
    var second = SHA256()
    second.updateField(bytes("a"))
    second.updateField(bytes("bc"))
    let (firstDigest, secondDigest) = (first.finalize(), second.finalize())
    #expect(firstDigest != secondDigest)
    // The prefix is the length as 8 big-endian bytes.
    var prefixed = SHA256()
    prefixed.updateField(bytes("abc"))
    let prefixedDigest = prefixed.finalize()
    #expect(prefixedDigest == SHA256.hex([0, 0, 0, 0, 0, 0, 0, 3] + bytes("abc")))
  }
}

/// FIPS 180-2 appendix A examples.
@Suite struct SHA1Tests {
  @Test func standardVectors() {
    #expect(hexadecimal(Digest.sha1(bytes("abc"))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
    #expect(
      hexadecimal(Digest.sha1(bytes("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")))
        == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
  }
}

/// RFC 4231 §4, test cases 1 to 4, 6 and 7 (case 5 is a truncated output).
@Suite struct HMACSHA256Tests {
  @Test(arguments: [
    (
      [UInt8](repeating: 0x0b, count: 20), bytes("Hi There"),
      "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
    ),
    (
      bytes("Jefe"), bytes("what do ya want for nothing?"),
      "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
    ),
    (
      [UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50),
      "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"
    ),
    (
      bytes(hex: "0102030405060708090a0b0c0d0e0f10111213141516171819"), [UInt8](repeating: 0xcd, count: 50),
      "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"
    ),
    (
      [UInt8](repeating: 0xaa, count: 131), bytes("Test Using Larger Than Block-Size Key - Hash Key First"),
      "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
    ),
    (
      [UInt8](repeating: 0xaa, count: 131),
      bytes(
        "This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm."
      ),
      "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"
    ),
  ])
  func rfc4231(key: [UInt8], message: [UInt8], digest: String) {
    #expect(hexadecimal(Digest.hmacSHA256(key: key, message: message)) == digest)
  }

  @Test func emptyKeyAndMessage() {
    // Python: hmac.new(b"", b"", "sha256").hexdigest()
    #expect(
      hexadecimal(Digest.hmacSHA256(key: [], message: []))
        == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
  }
}

/// RFC 4648 §10.
@Suite struct Base64Tests {
  @Test(arguments: [
    ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
    ("foobar", "Zm9vYmFy"),
  ])
  func rfc4648(input: String, encoded: String) {
    #expect(Digest.base64(bytes(input)) == encoded)
  }
}

import Foundation
import Testing

@testable import Wire

/// The strict reader's byte parser against what it replaced (Foundation's decoder and
/// `DuplicateKeys.scan`): whatever it accepts must come out exactly as Foundation read it, and
/// whatever Foundation refuses it must leave to Foundation, so the messages stay Foundation's.
@Suite struct JSONBytesTests {
  private static func fast(_ data: Data) -> JSONBytes.Parsed? {
    data.withUnsafeBytes { JSONBytes.parse($0.bindMemory(to: UInt8.self)) }
  }

  private static func foundation(_ data: Data) -> JSONBytes.Parsed? {
    try? JSONBytes.parseWithFoundation(data).get()
  }

  /// Whether two readings tell the reader the same: the same duplicate, or (with none) the same
  /// value and long numbers. With a duplicate the document is refused, so which of the two values
  /// a reading kept does not matter (`DuplicateKeys` stopped at the duplicate).
  private static func agree(_ first: JSONBytes.Parsed?, _ second: JSONBytes.Parsed?) -> Bool {
    guard let first, let second else { return first == nil && second == nil }
    if first.duplicate != nil || second.duplicate != nil { return first.duplicate == second.duplicate }
    return first.value == second.value && first.longWholeNumbers == second.longWholeNumbers
  }

  /// Every JSON file the project ships: runner files, policies, challenges, the recorded requests
  /// and answers.
  static let shippedDocuments: [(name: String, data: Data)] = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    var found: [(String, Data)] = []
    let directories = ["runners", "policies", "challenges", "Tests/WireTests/golden", "Tests/APITests/golden"]
    for directory in directories {
      let base = root.appendingPathComponent(directory).path
      let files = FileManager.default.enumerator(atPath: base)?.compactMap { $0 as? String } ?? []
      for file in files.sorted() where file.hasSuffix(".json") {
        if let data = FileManager.default.contents(atPath: base + "/" + file) {
          found.append((directory + "/" + file, data))
        }
      }
    }
    return found
  }()

  @Test func shippedDocumentsReadAsFoundationReadThem() throws {
    #expect(Self.shippedDocuments.count > 50)
    for (name, data) in Self.shippedDocuments {
      guard let expected = Self.foundation(data), case .object = expected.value else { continue }
      let parsed = Self.fast(data)
      #expect(parsed != nil, "\(name) left to Foundation")
      #expect(Self.agree(parsed, expected), "\(name)")
    }
  }

  /// Texts at the edges of the grammar, each either read alike or left to Foundation.
  static let edgeCases: [String] = [
    #"{}"#, #"[]"#, #" { } "#, "\t[\n1\r]\n", #"{"a":1,}"#, #"[1,]"#, #"[,1]"#, #"{"a" 1}"#, #"{"a":}"#, #"{a:1}"#,
    #"{"a":1}x"#, #"{"a":1}{"#, #"["a"]]"#, #"{"#, #"["#, #""#, #"1"#, #""x""#, #"null"#, "\u{FEFF}{}",
    #"[0, -0, 1, -1, 0.5, -0.5, 1e5, 1E5, 1e+5, 1e-5, 1.5e300, 123456789012345, -123456789012345]"#,
    #"[01]"#, #"[-]"#, #"[+1]"#, #"[1.]"#, #"[.5]"#, #"[1e]"#, #"[1e+]"#, #"[0x10]"#, #"[1e400]"#, #"[-1e400]"#,
    #"[1e-400]"#, #"[4.9e-324]"#, #"[2.2250738585072014e-308]"#, #"[1.7976931348623157e308]"#, #"[NaN]"#,
    #"[Infinity]"#, #"[1e00001]"#, #"[0.1, 0.2, 0.30000000000000004, 3.141592653589793238462643383279]"#,
    #"[1234567890123456, 12345678901234567890, -9223372036854775809, 18446744073709551615]"#,
    #"{"mask": 18446744073709551615, "list": [12345678901234567, {"x": -12345678901234567}]}"#,
    #"[true, false, null, tru, nul, fals]"#, #"[truex]"#, #"[True]"#,
    #"["\"\\\/\b\f\n\r\t"]"#, #"["\u0041\u00e9\u4e2d\ud83d\ude00"]"#, #"["\ud83d"]"#, #"["\ude00"]"#,
    #"["\ud83dx"]"#, #"["\ud83d\u0041"]"#, #"["\u00"]"#, #"["\uZZZZ"]"#, #"["\x"]"#, #"["\u0000"]"#,
    "[\"a\u{01}b\"]", "[\"tab\there\"]", #"["é", "中文", "😀"]"#, #"{"é": 1, "e\u0301": 2}"#,
    #"{"a": 1, "a": 2}"#, #"{"a": {"b": 1, "b": 2}, "c": 1, "c": 2}"#, #"[{"x": 1}, {"x": 1, "x": 1}]"#,
    #"{"a": 1, "\u0061": 2}"#, #"{"": 1, "": 2}"#, #"{"": {"": 1, "": 1}}"#,
    #"{"a": [1, 2, {"b": [{"c": 1, "c": 2}]}]}"#,
    #"{"a": 1, "a": }"#, #"{"a": 1, "a": 2"#, #"{"// note": 1, "// note": 2}"#,
    String(repeating: "[", count: 255) + String(repeating: "]", count: 255),
    String(repeating: "[", count: 256) + String(repeating: "]", count: 256),
    String(repeating: "[", count: 300) + String(repeating: "]", count: 300),
  ]

  @Test(arguments: edgeCases) func edgeCaseIsReadAsFoundationReadsIt(_ text: String) {
    let data = Data(text.utf8)
    if let parsed = Self.fast(data) {
      #expect(Self.agree(parsed, Self.foundation(data)))
    }
  }

  @Test func invalidUTF8IsLeftToFoundation() {
    for bytes: [UInt8] in [
      [0x5B, 0x22, 0xFF, 0x22, 0x5D], [0x5B, 0x22, 0xC3, 0x22, 0x5D],
      [0x7B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x3A, 0x31, 0x7D],
    ] {
      #expect(Self.fast(Data(bytes)) == nil)
    }
  }

  /// Thousands of damaged copies of the shipped documents (bytes dropped, doubled, swapped for
  /// JSON's own punctuation): each one the parser takes must be exactly what Foundation read.
  @Test func damagedDocumentsAreReadAsFoundationReadsThemOrLeftToIt() {
    var random = SplitMix64(seed: 0x5EED)
    let punctuation = Array(#"{}[]:,"\ -.0123456789eE+tfnu/"#.utf8) + [0x09, 0x0A, 0x00, 0x1F, 0x80, 0xFF]
    let sources = Self.shippedDocuments.map(\.data).filter { $0.count < 20_000 }
    var takenByBoth = 0
    for round in 0..<3_000 {
      var bytes = [UInt8](sources[round % sources.count])
      for _ in 0..<(1 + Int(random.next() % 3)) {
        let at = Int(random.next() % UInt64(bytes.count))
        switch random.next() % 4 {
        case 0: bytes.remove(at: at)
        case 1: bytes.insert(punctuation[Int(random.next() % UInt64(punctuation.count))], at: at)
        case 2: bytes[at] = punctuation[Int(random.next() % UInt64(punctuation.count))]
        default: bytes.insert(bytes[at], at: at)
        }
        if bytes.isEmpty { bytes = [0x5B, 0x5D] }
      }
      let data = Data(bytes)
      guard let parsed = Self.fast(data) else { continue }
      let expected = Self.foundation(data)
      #expect(Self.agree(parsed, expected), "\(String(decoding: bytes, as: UTF8.self))")
      if Self.agree(parsed, expected) { takenByBoth += 1 }
    }
    // Most damage is still JSON (a changed digit, space, letter in a string): those must be read here.
    #expect(takenByBoth > 500)
  }
}

/// A small deterministic generator (Steele, Lea, Flood), so a failure can be reproduced.
private struct SplitMix64 {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

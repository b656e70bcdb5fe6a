import Foundation

// The JVM languages' entry point is found in what the compiler wrote, not guessed from the source:
// a regex over Java or Kotlin text cannot tell a `main` in a comment, a nested class, a package, an
// `object` with `@JvmStatic` or a script from the real thing, and the class files can. The scan reads
// each class file's constant pool and method table (JVMS §4) and nothing else.

/// One class that the JVM launcher could start: it has `public static void main(String[])`.
struct EntryClass: Equatable, Sendable {
  /// The binary name the launcher wants ("com.example.Main").
  var name: String
  /// The source file the class came from, as the compiler recorded it ("Main.java"), if it did.
  var sourceFile: String?
}

/// Why no single entry class could be chosen.
enum EntryPointProblem: Error, Equatable {
  case none
  case several([EntryClass])
}

enum EntryPoint {
  /// The class to start among compiled `.class` artifacts. Candidates from `entrySource` (the box
  /// name of the first file, which requests call the entry point) win over the others; among
  /// several, top-level classes win over nested ones (`Outer$Inner`).
  static func choose(among artifacts: [(String, Data)], entrySource: String) throws(EntryPointProblem) -> String {
    let candidates = artifacts.filter { $0.0.hasSuffix(".class") }.compactMap { mainClass(in: $0.1) }
    guard !candidates.isEmpty else { throw .none }
    let entryBase = entrySource.split(separator: "/").last.map(String.init) ?? entrySource
    var narrowed = candidates.filter { $0.sourceFile == entryBase }
    if narrowed.isEmpty { narrowed = candidates }
    if narrowed.count > 1 {
      let topLevel = narrowed.filter { !$0.name.contains("$") }
      if !topLevel.isEmpty { narrowed = topLevel }
    }
    guard narrowed.count == 1 else { throw .several(narrowed.sorted { $0.name < $1.name }) }
    return narrowed[0].name
  }

  /// The class in this class file when it has `public static void main(String[])`; nil for any
  /// other class and for bytes that are not a well-formed class file.
  static func mainClass(in data: Data) -> EntryClass? {
    var reader = ClassFileReader(bytes: [UInt8](data))
    return try? reader.entryClass()
  }
}

/// A cursor over a class file; every read is bounds-checked, so a truncated or hostile file is an
/// error, never a crash.
private struct ClassFileReader {
  struct Malformed: Error {}

  let bytes: [UInt8]
  var offset = 0

  init(bytes: [UInt8]) { self.bytes = bytes }

  mutating func u1() throws(Malformed) -> Int {
    guard offset < bytes.count else { throw Malformed() }
    defer { offset += 1 }
    return Int(bytes[offset])
  }

  mutating func u2() throws(Malformed) -> Int { try u1() << 8 | u1() }

  mutating func u4() throws(Malformed) -> Int { try u2() << 16 | u2() }

  mutating func skip(_ count: Int) throws(Malformed) {
    guard count >= 0, count <= bytes.count - offset else { throw Malformed() }
    offset += count
  }

  mutating func entryClass() throws(Malformed) -> EntryClass? {
    guard try u4() == 0xCAFE_BABE else { throw Malformed() }
    try skip(4)  // minor and major version
    let poolCount = try u2()
    var utf8: [Int: String] = [:]
    var classNames: [Int: Int] = [:]
    var index = 1
    while index < poolCount {
      let tag = try u1()
      switch tag {
      case 1:
        let length = try u2()
        let start = offset
        try skip(length)
        // Modified UTF-8 differs from UTF-8 only for NUL and supplementary characters, which a
        // class or method name the launcher accepts does not contain.
        utf8[index] = String(decoding: bytes[start..<start + length], as: UTF8.self)
      case 7:
        classNames[index] = try u2()
      case 3, 4: try skip(4)
      case 5, 6:
        try skip(8)
        index += 1  // a long or a double takes two pool entries
      case 8, 16, 19, 20: try skip(2)
      case 9, 10, 11, 12, 17, 18: try skip(4)
      case 15: try skip(3)
      default: throw Malformed()
      }
      index += 1
    }
    try skip(2)  // access flags
    guard let thisName = classNames[try u2()].flatMap({ utf8[$0] }) else { throw Malformed() }
    try skip(2)  // super class
    try skip(2 * (try u2()))  // interfaces
    for _ in 0..<(try u2()) {  // fields
      try skip(6)
      try skipAttributes()
    }
    var hasMain = false
    for _ in 0..<(try u2()) {
      let flags = try u2()
      let name = try u2()
      let descriptor = try u2()
      let publicStatic = 0x0001 | 0x0008
      if flags & publicStatic == publicStatic, utf8[name] == "main", utf8[descriptor] == "([Ljava/lang/String;)V" {
        hasMain = true
      }
      try skipAttributes()
    }
    guard hasMain else { return nil }
    var sourceFile: String?
    for _ in 0..<(try u2()) {
      let name = try u2()
      let length = try u4()
      if utf8[name] == "SourceFile", length == 2 {
        sourceFile = utf8[try u2()]
      } else {
        try skip(length)
      }
    }
    return EntryClass(name: thisName.replacingOccurrences(of: "/", with: "."), sourceFile: sourceFile)
  }

  mutating func skipAttributes() throws(Malformed) {
    for _ in 0..<(try u2()) {
      try skip(2)
      try skip(try u4())
    }
  }
}

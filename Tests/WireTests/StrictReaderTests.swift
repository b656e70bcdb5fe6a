import Foundation
import Testing
import Wire

/// Reads `json` as an object with `keys`, runs `body` on it, and returns every problem found.
private func problems(
  _ json: String, keys: [String], nulls: StrictReader.Nulls = .refused, comments: Bool = false,
  _ body: (StrictObject) -> Void = { _ in }
) -> [JSONProblem] {
  let reader = StrictReader(nulls: nulls, allowsComments: comments)
  if let value = reader.parse(Data(json.utf8)), let object = reader.object(value, at: "", keys: keys) {
    body(object)
  }
  return reader.problems
}

@Suite struct StrictReaderTests {
  /// Foundation's decoder traps (the process dies) on 513 open brackets and nothing else: found by
  /// fuzzing (Tests/fuzz/challenge/regressions/), a request body like it killed the daemon. Deeper
  /// than the bound, a text is refused before any decoder sees it.
  @Test(arguments: [257, 513, 600, 100_000])
  func aTextNestedTooDeeplyIsRefusedByName(depth: Int) {
    for text in [String(repeating: "[", count: depth), "{\"a\": " + String(repeating: "[", count: depth)] {
      let reader = StrictReader()
      #expect(reader.parse(Data(text.utf8)) == nil)
      #expect(reader.problems.first?.message == "not valid JSON: nested deeper than 256 levels", "\(reader.problems)")
    }
    let fine = StrictReader()
    #expect(fine.parse(Data((String(repeating: "[", count: 200) + String(repeating: "]", count: 200)).utf8)) != nil)
  }

  @Test func cleanDocumentReadsEveryType() throws {
    let reader = StrictReader()
    let value = try #require(
      reader.parse(
        Data(
          #"{"name": "x", "on": true, "ratio": 0.5, "count": 3, "tags": ["a", "b"], "limits": {"cpu_ms": 100}}"#.utf8)))
    let object = try #require(reader.object(value, at: "", keys: ["name", "on", "ratio", "count", "tags", "limits"]))
    #expect(object.string("name") == "x")
    #expect(object.bool("on") == true)
    #expect(object.number("ratio") == 0.5)
    #expect(object.integer("count", as: UInt64.self, in: 1...10) == 3)
    #expect(object.strings("tags") == ["a", "b"])
    #expect(object.object("limits", keys: ["cpu_ms"])?.integer("cpu_ms", as: Int.self) == 100)
    #expect(object.string("absent") == nil)
    #expect(reader.problems.isEmpty)
  }

  @Test func unknownKeyIsNamedWithItsPathAndTheKnownKeys() {
    let found = problems(#"{"limits": {"cpu": 1}, "limts": 2}"#, keys: ["limits"]) { object in
      _ = object.object("limits", keys: ["cpu_ms", "wall_ms"])
    }
    #expect(
      found.map(\.description) == [
        "limts: unknown key; known keys: limits",
        "limits.cpu: unknown key; known keys: cpu_ms, wall_ms",
      ])
    #expect(found.allSatisfy { $0.kind == .unknownKey })
  }

  @Test func wrongTypesSayWhatWasExpectedAndWhatCame() {
    let found = problems(
      #"{"a": 1, "b": "x", "c": [], "d": {}, "e": [1, "y", true], "f": 1.5}"#, keys: ["a", "b", "c", "d", "e", "f"]
    ) { object in
      _ = object.string("a")
      _ = object.bool("b")
      _ = object.object("c", keys: [])
      _ = object.array("d")
      _ = object.strings("e")
      _ = object.integer("f", as: Int.self)
    }
    #expect(
      found.map(\.description) == [
        "a: expected a string, got a number",
        "b: expected true or false, got a string",
        "c: expected an object, got an array",
        "d: expected an array, got an object",
        "e[0]: expected a string, got a number",
        "e[2]: expected a string, got a boolean",
        "f: expected a whole number, got 1.5",
      ])
    #expect(found.allSatisfy { $0.kind == .wrongType })
  }

  @Test func numbersOutOfRangeNameTheRange() {
    let found = problems(#"{"a": 0, "b": -1, "c": 1e30, "d": 300}"#, keys: ["a", "b", "c", "d"]) { object in
      _ = object.integer("a", as: UInt64.self, in: 1...10_000)
      _ = object.integer("b", as: UInt64.self)
      _ = object.integer("c", as: Int64.self)
      _ = object.integer("d", as: UInt8.self)
    }
    #expect(
      found.map(\.description) == [
        "a: 0 is out of range: expected a whole number from 1 to 10000",
        "b: -1 is out of range: expected a whole number from 0 to 9007199254740992",
        "c: 1e+30 is out of range: expected a whole number from -9007199254740992 to 9007199254740992",
        "d: 300 is out of range: expected a whole number from 0 to 255",
      ])
    #expect(found.allSatisfy { $0.kind == .outOfRange })
  }

  /// JSONValue holds numbers as Doubles; long whole numbers are still read exactly from their text.
  @Test func longWholeNumbersAreExact() {
    let found = problems(
      #"{"mask": 18446744073709551615, "big": 18446744073709551616, "odd": 9007199254740993, "list": [12345678901234567]}"#,
      keys: ["mask", "big", "odd", "list"]
    ) { object in
      #expect(object.integer("mask", as: UInt64.self) == UInt64.max)
      #expect(object.integer("big", as: UInt64.self) == nil)
      #expect(object.integer("odd", as: Int64.self) == 9_007_199_254_740_993)
      #expect(
        object.array("list").map { StrictObject.integer($0[0], at: "list[0]", as: Int64.self, reader: object.reader) }
          == 12_345_678_901_234_567)
    }
    #expect(
      found.map(\.description) == [
        "big: 18446744073709551616 is out of range: expected a whole number from 0 to 18446744073709551615"
      ])
  }

  @Test func duplicateKeyIsRefusedWithItsPath() {
    let found = problems(#"{"limits": {"cpu_ms": 1, "cpu_ms": 2}}"#, keys: ["limits"])
    #expect(
      found == [
        JSONProblem(path: "limits.cpu_ms", message: "is given twice; give each field once", kind: .duplicateKey)
      ])
  }

  @Test func nullsAreRefusedOrAbsentAsTheDocumentSays() {
    let refused = problems(#"{"stdin": null}"#, keys: ["stdin"]) { _ = $0.string("stdin") }
    #expect(refused.map(\.description) == ["stdin: must not be null; leave the field out instead"])
    #expect(refused.first?.kind == .null)
    let absent = problems(#"{"stdin": null}"#, keys: ["stdin"], nulls: .absent) { object in
      #expect(object.string("stdin") == nil)
      #expect(object.isNull("stdin"))
    }
    #expect(absent.isEmpty)
  }

  @Test func missingRequiredKeysAreProblems() {
    let found = problems(#"{}"#, keys: ["language"]) { _ = $0.string("language", required: true) }
    #expect(found == [JSONProblem(path: "language", message: "is required", kind: .missing)])
  }

  @Test func invalidJSONIsOneProblemAtTheTop() {
    let found = problems(#"{"language": "#, keys: [])
    #expect(found.count == 1)
    #expect(found.first?.kind == .invalidJSON)
    #expect(found.first?.path == "")
    #expect(found.first?.description.hasPrefix("not valid JSON: ") == true)
  }

  @Test func everyProblemOfADocumentIsCollectedWithItsPath() {
    let json =
      #"{"language": 3, "files": [{"name": "a", "content": 1}, {"nam": "b", "content": ""}], "limits": {"cpu_ms": "x", "wall_ms": 0, "memory": 1}, "extra": true}"#
    let found = problems(json, keys: ["language", "files", "limits"]) { object in
      _ = object.string("language")
      for file in object.objects("files", keys: ["name", "content"]) ?? [] {
        _ = file.string("name", required: true)
        _ = file.string("content", required: true)
      }
      if let limits = object.object("limits", keys: ["cpu_ms", "wall_ms"]) {
        _ = limits.integer("cpu_ms", as: Int64.self)
        _ = limits.integer("wall_ms", as: UInt64.self, in: 1...20_000)
      }
    }
    #expect(
      found.map(\.description) == [
        "extra: unknown key; known keys: language, files, limits",
        "language: expected a string, got a number",
        "files[1].nam: unknown key; known keys: name, content",
        "files[0].content: expected a string, got a number",
        "files[1].name: is required",
        "limits.memory: unknown key; known keys: cpu_ms, wall_ms",
        "limits.cpu_ms: expected a whole number, got a string",
        "limits.wall_ms: 0 is out of range: expected a whole number from 1 to 20000",
      ])
  }

  @Test func commentKeysAreSkippedOnlyWhereAllowed() {
    #expect(problems(#"{"// note": 1}"#, keys: [], comments: true).isEmpty)
    #expect(problems(#"{"// note": 1}"#, keys: []).map(\.kind) == [.unknownKey])
  }

  @Test func emptyStringsCanBeRefused() {
    let found = problems(#"{"name": ""}"#, keys: ["name"]) { _ = $0.string("name", nonEmpty: true) }
    #expect(found.map(\.description) == ["name: must not be empty"])
  }
}

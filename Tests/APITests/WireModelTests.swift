import Foundation
import Runners
import Sandbox
import Testing
import Wire

@testable import API

@Suite struct WireModelTests {
  private func decode(_ json: String) throws(APIError) -> ExecuteBody {
    try ExecuteBody.decode(Data(json.utf8))
  }

  private func decodeError(_ json: String) -> APIError? {
    do {
      _ = try decode(json)
      return nil
    } catch {
      return error
    }
  }

  @Test func decodesEveryField() throws {
    let body = try decode(
      """
      {"language": "python", "version": "3.11", "files": [{"name": "a.py", "content": "print(1)"}],
       "stdin": "x", "args": ["-v"],
       "limits": {"cpu_ms": 100, "wall_ms": 200, "memory_mb": 64, "output_kb": 8, "processes": 4}}
      """)
    #expect(body.language == "python")
    #expect(body.version == "3.11")
    #expect(body.files == [ExecuteBody.File(name: "a.py", content: "print(1)")])
    #expect(body.stdin == "x")
    #expect(body.args == ["-v"])
    #expect(
      body.limits
        == ExecuteBody.Limits(
          cpuMilliseconds: 100, wallMilliseconds: 200, memoryMegabytes: 64, outputKilobytes: 8, processes: 4))
  }

  @Test(arguments: [
    (#"{"language": "python", "source": "", "limts": {}}"#, "limts"),
    (#"{"language": "python", "files": [{"name": "a", "content": "", "mode": 7}]}"#, "files[0].mode"),
    (#"{"language": "python", "source": "", "limits": {"cpu": 1}}"#, "limits.cpu"),
    (#"{"language": "python", "source": "", "limits": {"tmp_mb": 1}}"#, "limits.tmp_mb"),
  ])
  func unknownKeysAreRefused(json: String, path: String) {
    let error = decodeError(json)
    #expect(error?.code == "unknown_field")
    #expect(error?.status.code == 400)
    #expect(error?.message == "unknown field \"\(path)\"")
  }

  @Test(arguments: [
    ("", "not valid JSON"),
    ("{", "not valid JSON"),
    ("[]", "the body must be a JSON object"),
    (#"{"source": "x"}"#, "missing field \"language\""),
    (#"{"language": 3, "source": "x"}"#, "language: expected a string, got a number"),
    (#"{"language": "python", "source": "x", "args": "-v"}"#, "args: expected an array, got a string"),
    (
      #"{"language": "python", "source": "x", "limits": {"cpu_ms": 1.5}}"#,
      "limits.cpu_ms: expected a whole number, got 1.5"
    ),
    (#"{"language": "python", "source": "x", "limits": {"cpu_ms": 1e30}}"#, "limits.cpu_ms: 1e+30 is out of range"),
    (#"{"language": "python", "source": "x", "limits": []}"#, "limits: expected an object, got an array"),
    (#"{"language": "python", "files": [{"name": "a"}]}"#, "missing field \"files[0].content\""),
    // No field is nullable in the schema, so a null is refused by name rather than read as absent.
    (#"{"language": "python", "source": null}"#, "\"source\" must not be null; leave the field out instead"),
    (#"{"language": "python", "source": "x", "limits": {"cpu_ms": null}}"#, "\"limits.cpu_ms\" must not be null"),
    (#"{"language": "python", "version": null, "source": "x"}"#, "\"version\" must not be null"),
    ("null", "the body must be a JSON object"),
    // A key given twice says two things at once.
    (#"{"language": "python", "source": "x", "source": "y"}"#, "\"source\" is given twice; give each field once"),
    (
      #"{"language": "python", "source": "x", "limits": {"cpu_ms": 1, "cpu_\u006ds": 2}}"#,
      "\"limits.cpu_ms\" is given twice"
    ),
  ])
  func malformedBodiesAreBadRequests(json: String, fragment: String) {
    let error = decodeError(json)
    #expect(error?.code == "bad_request")
    #expect(error?.status.code == 400)
    #expect(error?.message.contains(fragment) == true, "\(error?.message ?? "no error")")
  }

  /// One answer names every problem of the body, each with its path, not only the first.
  @Test func everyProblemIsNamedInOneAnswer() {
    let error = decodeError(
      #"{"language": 3, "files": [{"name": "a"}], "limits": {"cpu_ms": "1", "wall": 2}, "stdin": null, "x": 1}"#)
    #expect(error?.code == "unknown_field")
    #expect(
      error?.message
        == "unknown field \"x\"; language: expected a string, got a number; missing field \"files[0].content\"; "
        + "\"stdin\" must not be null; leave the field out instead; "
        + "unknown field \"limits.wall\"; limits.cpu_ms: expected a whole number, got a string")
  }

  @Test func sourceOrFilesButNotBoth() throws {
    let both = try decode(#"{"language": "python", "source": "x", "files": [{"name": "a", "content": ""}]}"#)
    #expect(throws: APIError.badRequest("give either \"files\" or \"source\", not both")) {
      try both.runAsk()
    }
    let neither = try decode(#"{"language": "python"}"#)
    #expect(throws: APIError.badRequest("missing field \"files\" (or \"source\")")) {
      try neither.runAsk()
    }
    let empty = try decode(#"{"language": "python", "files": []}"#)
    #expect(throws: APIError.badRequest("\"files\" must hold at least one file")) {
      try empty.runAsk()
    }
  }

  @Test func convertsToAnExecuteRequest() throws {
    let body = try decode(
      #"{"language": "py", "source": "print(1)", "stdin": "in", "args": ["a"], "limits": {"cpu_ms": 300}}"#)
    let ask = try body.runAsk()
    #expect(ask.language == "py")
    #expect(ask.files == [SourceFile(name: "", contents: Data("print(1)".utf8))])
    #expect(ask.stdin == Data("in".utf8))
    #expect(ask.arguments == ["a"])
    let limits = try admitted(body)
    #expect(limits.cpuMilliseconds == 300)
    // Within the maxima, the runner's defaults stay the runner's.
    #expect(limits.wallMilliseconds == nil)
    #expect(limits.memoryMegabytes == nil)
  }

  @Test(arguments: [
    ("cpu_ms", 10_001, "limits.cpu_ms is 10001; the maximum is 10000"),
    ("wall_ms", 20_001, "limits.wall_ms is 20001; the maximum is 20000"),
    ("memory_mb", 4096, "limits.memory_mb is 4096; the maximum is 1024"),
    ("output_kb", 5000, "limits.output_kb is 5000; the maximum is 4096"),
    ("processes", 129, "limits.processes is 129; the maximum is 128"),
    ("cpu_ms", 0, "limits.cpu_ms must be greater than 0 (it was 0)"),
    ("memory_mb", -5, "limits.memory_mb must be greater than 0 (it was -5)"),
  ])
  func limitsOutsideTheirRangeAreRefused(name: String, value: Int, message: String) throws {
    let body = try decode(#"{"language": "python", "source": "", "limits": {"\#(name)": \#(value)}}"#)
    #expect(throws: APIError.badRequest(message)) {
      try admitted(body)
    }
  }

  @Test func limitsAtTheMaximumAreAccepted() throws {
    let body = try decode(#"{"language": "python", "source": "", "limits": {"cpu_ms": 10000, "processes": 128}}"#)
    let limits = try admitted(body)
    #expect(limits.cpuMilliseconds == 10_000)
    #expect(limits.processes == 128)
  }

  @Test func runnerDefaultsAboveAMaximumAreLowered() throws {
    var maxima = LimitMaxima()
    maxima.cpuMilliseconds = 1000
    maxima.memoryMegabytes = 128
    let body = try decode(#"{"language": "python", "source": ""}"#)
    let limits = try admitted(body, maxima: maxima)
    #expect(limits.cpuMilliseconds == 1000)
    #expect(limits.memoryMegabytes == 128)
    #expect(limits.wallMilliseconds == nil)
  }

  /// A grade's test limits: an inline challenge's above a maximum are refused naming the field, a
  /// catalog challenge's (the operator's file) are lowered, and runner defaults above a maximum are
  /// lowered for both.
  @Test func challengeLimitsAreWithinTheMaxima() throws {
    var maxima = LimitMaxima()
    maxima.cpuMilliseconds = 1000
    var asked = StepLimits()
    asked.memoryMegabytes = 2048
    asked.wallMilliseconds = 3000
    #expect(throws: APIError.badRequest("challenge.limits.memory_mb is 2048; the maximum is 1024")) {
      try maxima.admit(AskedLimits(asked), runnerDefaults: BoxLimits(), chooser: .caller, field: "challenge.limits.")
    }
    let catalog = try maxima.admit(
      AskedLimits(asked), runnerDefaults: BoxLimits(), chooser: .operatorChoice, field: "challenge.limits.")
    #expect(catalog.memoryMegabytes == 1024)
    #expect(catalog.wallMilliseconds == 3000)
    // The runner's default CPU (BoxLimits: 5 s) is above the 1 s maximum.
    #expect(catalog.cpuMilliseconds == 1000)
    asked.memoryMegabytes = 512
    let inline = try maxima.admit(
      AskedLimits(asked), runnerDefaults: BoxLimits(), chooser: .caller, field: "challenge.limits.")
    #expect(inline.memoryMegabytes == 512 && inline.cpuMilliseconds == 1000)
    asked.processes = 0
    #expect(throws: APIError.badRequest("challenge.limits.processes must be greater than 0 (it was 0)")) {
      try maxima.admit(AskedLimits(asked), runnerDefaults: BoxLimits(), chooser: .caller, field: "challenge.limits.")
    }
  }

  @Test(arguments: [
    (#"[{"name": "/etc/x", "content": ""}]"#, "files[0].name: the file name \"/etc/x\" is absolute"),
    (#"[{"name": "", "content": ""}]"#, "files[0].name: a file name is empty"),
    (
      #"[{"name": "main.py", "content": ""}, {"name": "../x", "content": ""}]"#,
      "files[1].name: the file name \"../x\" contains"
    ),
    (
      #"[{"name": "a.py", "content": ""}, {"name": "a.py", "content": "1"}]"#,
      "files[1].name: two files are named \"a.py\""
    ),
  ])
  func everyFileNameIsCheckedTheFirstOnesToo(files: String, message: String) throws {
    let body = try decode(#"{"language": "python", "files": "# + files + "}")
    do throws(APIError) {
      _ = try body.runAsk()
      Issue.record("accepted \(files)")
    } catch {
      #expect(error.code == "bad_request")
      #expect(error.message.hasPrefix(message), "\(error.message)")
    }
  }

  /// The run limits a body's `limits` are admitted as, over default box limits.
  private func admitted(_ body: ExecuteBody, maxima: LimitMaxima = LimitMaxima()) throws(APIError) -> StepLimits {
    try maxima.admit(try body.runAsk().limits, runnerDefaults: BoxLimits(), chooser: .caller, field: "limits.")
  }
}

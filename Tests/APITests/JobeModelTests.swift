import Foundation
import Runners
import Testing
import Wire

@testable import API

/// Jobe's wire model, pure (docs/compat.md, "Jobe"; the contract is Jobe 2.2.2's Runs controller):
/// the checks of a run_spec in Jobe's order and words, its parameters in our units, `sh`'s word
/// splitting, and the cleaning of output that is not UTF-8.
@Suite struct JobeModelTests {
  static let languages = JobeLanguage.all

  static func refusal(_ body: String) -> JobeRefusal? {
    do {
      _ = try JobeRunSpec.read(Data(body.utf8), known: languages)
      return nil
    } catch {
      return error
    }
  }

  static func spec(_ body: String) throws -> JobeRunSpec {
    try JobeRunSpec.read(Data(body.utf8), known: languages)
  }

  @Test func theBodyChecksComeInJobesOrderWithItsWords() {
    #expect(Self.refusal("") == JobeRefusal(400, "Non-JSON post data received"))
    #expect(Self.refusal("[]") == JobeRefusal(400, "Non-JSON post data received"))
    #expect(
      Self.refusal("{\"run_spec\":")
        == JobeRefusal(500, "Server exception (Failed to parse JSON string. Error: Syntax error)"))
    #expect(Self.refusal("{}") == JobeRefusal(500, "Server exception (Undefined property: stdClass::$run_spec)"))
    #expect(Self.refusal(#"{"run_spec": 3}"#) == JobeRefusal(400, "No run_spec attribute found in post data"))
    // sourcecode is checked before language_id, and both before the language.
    #expect(
      Self.refusal(#"{"run_spec": {"language_id": "nope"}}"#)
        == JobeRefusal(400, "run_spec is missing the required attribute 'sourcecode'"))
    #expect(
      Self.refusal(#"{"run_spec": {"sourcecode": ""}}"#)
        == JobeRefusal(400, "run_spec is missing the required attribute 'language_id'"))
    #expect(
      Self.refusal(#"{"run_spec": {"sourcecode": "", "language_id": "Pascal"}}"#)
        == JobeRefusal(400, "Language 'pascal' is not known"))
    #expect(
      Self.refusal(#"{"run_spec": {"sourcecode": "", "language_id": "python3", "parameters": {"cputime": 121}}}"#)
        == JobeRefusal(400, "cputime exceeds maximum allowed on this Jobe server (120 secs)"))
    #expect(
      Self.refusal(#"{"run_spec": {"sourcecode": "", "language_id": "python3", "sourcefilename": "../x.py"}}"#)
        == JobeRefusal(400, "The sourcefilename for the run_spec is illegal"))
  }

  @Test func theLanguageIdIsLowerCasedAndPascalIsUnknown() throws {
    #expect(try Self.spec(#"{"run_spec": {"sourcecode": "", "language_id": "Python3"}}"#).language.language == "python")
    #expect(
      try Self.spec(#"{"run_spec": {"sourcecode": "", "language_id": "nodejs"}}"#).language.language == "javascript")
    for unknown in ["pascal", "php", "octave", "python2", "matlab", "python"] {
      #expect(
        Self.refusal(#"{"run_spec": {"sourcecode": "", "language_id": "\#(unknown)"}}"#)
          == JobeRefusal(400, "Language '\(unknown)' is not known"))
    }
  }

  @Test func cputimeIsInclusiveAndANonNumberIsTheDefault() throws {
    let atCeiling = try Self.spec(
      #"{"run_spec": {"sourcecode": "", "language_id": "c", "parameters": {"cputime": 120.9}}}"#)
    #expect(atCeiling.parameters.cpuSeconds == 120.9)
    let injected = try Self.spec(
      #"{"run_spec": {"sourcecode": "", "language_id": "c", "parameters": {"cputime": "1; echo", "unknown": 1}}}"#)
    #expect(injected.parameters.cpuSeconds == 5)
    let text = try Self.spec(#"{"run_spec": {"sourcecode": "", "language_id": "c", "parameters": {"cputime": "3"}}}"#)
    #expect(text.parameters.cpuSeconds == 3)
  }

  @Test func sourceFileNamesAreRefusedWhereJobesCleaningWouldChangeThem() {
    for refused in ["../x.py", ".x.py", "-x.py", "a~b.py", "a$b.py", "a;b.py", "a\u{7}.py", "a(1).py"] {
      #expect(!JobeRunSpec.isCleanFileName(refused), "\(refused)")
    }
    for allowed in ["prog.py", "é.py", "my prog.py", "Test.java", "a_b-c.py", "100%.py"] {
      #expect(JobeRunSpec.isCleanFileName(allowed), "\(allowed)")
    }
  }

  @Test func defaultFileNamesAndJavasProgJavaHack() throws {
    #expect(try Self.spec(#"{"run_spec": {"sourcecode": "", "language_id": "python3"}}"#).sourceFileName == "prog.py")
    #expect(
      try Self.spec(#"{"run_spec": {"sourcecode": "", "language_id": "cpp", "sourcefilename": ""}}"#).sourceFileName
        == "prog.cpp")
    // "prog.java" is ignored so the public class names the file, as Jobe does for old CodeRunners.
    #expect(
      try Self.spec(#"{"run_spec": {"sourcecode": "", "language_id": "java", "sourcefilename": "prog.java"}}"#)
        .sourceFileName == "")
    #expect(
      try Self.spec(#"{"run_spec": {"sourcecode": "", "language_id": "java", "sourcefilename": "Test.java"}}"#)
        .sourceFileName == "Test.java")
  }

  @Test func inputZeroLikeEmptyMeansNoStdin() throws {
    #expect(try Self.spec(#"{"run_spec": {"sourcecode": "", "language_id": "c", "input": "0"}}"#).input == "")
    #expect(try Self.spec(#"{"run_spec": {"sourcecode": "", "language_id": "c", "input": 0}}"#).input == "")
    #expect(try Self.spec(#"{"run_spec": {"sourcecode": "", "language_id": "c", "input": 42}}"#).input == "42")
    #expect(try Self.spec(#"{"run_spec": {"sourcecode": "", "language_id": "c", "input": "0\n"}}"#).input == "0\n")
  }

  @Test func fileListEntriesAreCheckedAndQuotedAsPrintR() throws {
    #expect(
      Self.refusal(#"{"run_spec": {"sourcecode": "", "language_id": "c", "file_list": [["abc", "f.txt"]]}}"#)
        == JobeRefusal(400, "Invalid file specifier: Array\n(\n    [0] => abc\n    [1] => f.txt\n)\n"))
    #expect(
      Self.refusal(#"{"run_spec": {"sourcecode": "", "language_id": "c", "file_list": [["abcdefgh", "../f"]]}}"#) != nil
    )
    #expect(
      Self.refusal(#"{"run_spec": {"sourcecode": "", "language_id": "c", "file_list": [["abcdefgh"]]}}"#) != nil)
    let spec = try Self.spec(
      #"{"run_spec": {"sourcecode": "", "language_id": "c", "file_list": [["abcdefgh", "data.txt", "ignored"]]}}"#)
    #expect(spec.files.map(\.id) == ["abcdefgh"])
    #expect(spec.files.map(\.name) == ["data.txt"])
  }

  @Test func runargsAreSplitAsShSplitsOneLine() throws {
    #expect(JobeShellWords.split("a b\t c") == ["a", "b", "c"])
    #expect(JobeShellWords.split(#""q u" 'x "y"' a\ b"#) == ["q u", #"x "y""#, "a b"])
    #expect(JobeShellWords.split(#"-c "print(\"Blah\")""#) == ["-c", #"print("Blah")"#])
    #expect(JobeShellWords.split(#""" ''"#) == ["", ""])
    // Nothing is expanded: a variable or a glob reaches the program as written.
    #expect(JobeShellWords.split("$HOME *") == ["$HOME", "*"])
    // Jobe joins the list with spaces first, so quotes may span two entries.
    let spec = try Self.spec(
      #"{"run_spec": {"sourcecode": "", "language_id": "c", "parameters": {"runargs": ["a b", "\"q", "u\"", 7]}}}"#)
    #expect(spec.parameters.runArguments == ["a", "b", "q u", "7"])
  }

  @Test func parametersBecomeOurLimitsWithinTheMaxima() {
    var maxima = LimitMaxima()
    maxima.cpuMilliseconds = 10_000
    maxima.wallMilliseconds = 20_000
    var parameters = JobeParameters()
    var limits = parameters.askedLimits(maxima: maxima, language: "python")
    // Jobe's defaults: 5 s of CPU, the wall kill at twice that, 2 MB a stream; memory the runner's.
    #expect(limits.cpuMilliseconds == 5000)
    #expect(limits.wallMilliseconds == 10_000)
    #expect(limits.outputKilobytes == 2000)
    #expect(limits.memoryMegabytes == nil)
    #expect(limits.processes == nil)
    parameters.cpuSeconds = 15
    parameters.memoryMegabytes = 400
    parameters.processes = 20
    limits = parameters.askedLimits(maxima: maxima, language: "c")
    #expect(limits.cpuMilliseconds == 10_000)
    #expect(limits.wallMilliseconds == 20_000)
    // 400 of Jobe's MB (1,024,000 bytes) is 390.6 MiB.
    #expect(limits.memoryMegabytes == 391)
    #expect(limits.processes == 20)
    parameters.memoryMegabytes = 0
    #expect(parameters.askedLimits(maxima: maxima, language: "c").memoryMegabytes == 1024)
    parameters.memoryMegabytes = 1_000_000
    #expect(parameters.askedLimits(maxima: maxima, language: "c").memoryMegabytes == 1024)
    // Jobe ignores memorylimit and numprocs for Java.
    #expect(parameters.askedLimits(maxima: maxima, language: "java").memoryMegabytes == nil)
    #expect(parameters.askedLimits(maxima: maxima, language: "java").processes == nil)
  }

  @Test func outputThatIsNotUTF8IsEscapedByteByByte() {
    #expect(JobeResult.clean(Data("Un rôle délétère\n".utf8)) == "Un rôle délétère\n")
    #expect(JobeResult.clean(Data([0x6F, 0x6B, 0x09, 0x0D, 0x01, 0xFF, 0x0A])) == "ok\t\r\\x01\\xff\n")
    let printed = Data("Hello world\n".utf8) + Data([0x01, 0x06, 0xC0, 0xC9, 0x0A])
    #expect(JobeResult.clean(printed) == "Hello world\n\\x01\\x06\\xc0\\xc9\n")
  }

  @Test func theResultKeepsJobesKeyOrder() {
    let result = JobeResult(outcome: .success, stdout: "a/b\n")
    #expect(
      String(decoding: result.json, as: UTF8.self)
        == #"{"run_id":null,"outcome":15,"cmpinfo":"","stdout":"a/b\n","stderr":""}"#)
    #expect(String(decoding: JobeResult.overload.json, as: UTF8.self).hasPrefix(#"{"run_id":"0","outcome":21,"#))
  }

  @Test func javaStackTracesHaveTheirTabsAsEightSpaces() {
    #expect(JobeResult.indentingTabs("E\n\tat E.main(E.java:1)\n") == "E\n        at E.main(E.java:1)\n")
  }

  @Test func theFileCacheDropsTheLeastRecentlyUsedPastItsBound() {
    let cache = JobeFileCache(capacityBytes: 10, entryOverheadBytes: 0)
    #expect(cache.put("aaaaaaaa", owner: "", contents: Data(count: 4)))
    #expect(cache.put("bbbbbbbb", owner: "", contents: Data(count: 4)))
    // A HEAD is a use: a's last use is now later than b's.
    #expect(cache.contains("aaaaaaaa", owner: ""))
    #expect(cache.put("cccccccc", owner: "", contents: Data(count: 4)))
    #expect(cache.contains("aaaaaaaa", owner: ""))
    #expect(!cache.contains("bbbbbbbb", owner: ""))
    #expect(cache.bytes == 8)
    // A PUT overwrites; a file over the whole bound is refused.
    #expect(cache.put("aaaaaaaa", owner: "", contents: Data(count: 1)))
    #expect(cache.bytes == 5)
    #expect(!cache.put("dddddddd", owner: "", contents: Data(count: 11)))
    // Each token has its own ids.
    #expect(!cache.contains("aaaaaaaa", owner: "other"))
  }

  @Test func emptyFilesCountTheirOverheadSoAFloodOfThemIsBounded() {
    let cache = JobeFileCache(capacityBytes: 1000, entryOverheadBytes: 100)
    for index in 0..<50 { #expect(cache.put("file\(index)xxxx", owner: "", contents: Data())) }
    #expect(cache.bytes <= 1000)
    // The newest stays; the oldest went first.
    #expect(cache.contains("file49xxxx", owner: ""))
    #expect(!cache.contains("file0xxxx", owner: ""))
  }
}

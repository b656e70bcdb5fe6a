import Foundation
import SandboxTesting
import Testing

@testable import Runners
@testable import Sandbox

// The step recorder (recorder/<language>/, installed to /opt/dsa-run/recorder/<language>): each
// language's probe performs the one scenario of Tests/Fixtures/recorder/scenario.md in a real box
// with the shipped runner, and its steps must be exactly scenario.steps.

/// A JSON value as a step checker sees it, keeping what a Double would blur: 64-bit integers
/// exactly, integers apart from floats, booleans apart from numbers.
indirect enum RecorderStepValue: Decodable, Equatable, CustomStringConvertible {
  case null
  case bool(Bool)
  case integer(Int64)
  case float(Double)
  case string(String)
  case array([RecorderStepValue])
  case object([String: RecorderStepValue])

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Int64.self) {
      self = .integer(value)
    } else if let value = try? container.decode(Double.self) {
      self = .float(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([RecorderStepValue].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: RecorderStepValue].self))
    }
  }

  var description: String {
    switch self {
    case .null: "null"
    case .bool(let value): "\(value)"
    case .integer(let value): "\(value)"
    case .float(let value): "\(value)f"
    case .string(let value): "\(value.debugDescription)"
    case .array(let values): "[" + values.map(\.description).joined(separator: ",") + "]"
    case .object(let fields):
      "{" + fields.sorted { $0.key < $1.key }.map { "\($0.key.debugDescription):\($0.value)" }.joined(separator: ",")
        + "}"
    }
  }
}

enum RecorderFixture {
  static let languages = ["python", "javascript", "cpp", "c", "java", "kotlin", "go", "dart"]
  static let directory = TestExecutors.repositoryRoot + "/Tests/Fixtures/recorder"
  static let tooManySteps = "too many steps: the recorder keeps at most 100000"

  /// One line of output, a step (parsed) or ordinary text.
  enum Line: Equatable, CustomStringConvertible {
    case step(RecorderStepValue)
    case text(String)

    var description: String {
      switch self {
      case .step(let value): "@step \(value)"
      case .text(let text): text.debugDescription
      }
    }
  }

  static func lines(_ output: String) throws -> [Line] {
    var lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    return try lines.map { line in
      guard line.hasPrefix("@step ") else { return .text(line) }
      return .step(try JSONDecoder().decode(RecorderStepValue.self, from: Data(line.dropFirst(6).utf8)))
    }
  }

  static func steps(_ output: String) throws -> [RecorderStepValue] {
    try lines(output).compactMap { if case .step(let value) = $0 { value } else { nil } }
  }

  static var expectedSteps: [RecorderStepValue] {
    get throws {
      try steps(
        String(decoding: try Data(contentsOf: URL(fileURLWithPath: directory + "/scenario.steps")), as: UTF8.self))
    }
  }
}

/// The scenario of scenario.md, in each language.
private let scenarioProbes: [String: String] = [
  "python": #"""
  from dsa import Recorder

  rec = Recorder([3, 1, 2])
  rec.compare(0, 1)
  rec.swap(0, 1)
  rec.overwrite(2, 7, caption="seven")
  rec.mark_sorted(0)
  rec.done()
  Recorder([1.5, -0.25]).compare(0, 1)
  Recorder(["b", "ä\"\n"]).swap(0, 1)
  Recorder([9223372036854775807, -9223372036854775808]).compare(0, 1)
  search = Recorder()
  search.probe(0, 2, 4, False)
  search.probe(3, 3, 4, True)
  search.probe(5, None, 4, False)
  graph = Recorder()
  graph.discover(0)
  graph.visit(0)
  graph.discover(1)
  graph.discover(2, caption="ünï \"q\"\n")
  graph.visit(1)
  graph.step("highlight", {"cells": [1, 2]})

  """#,
  "javascript": #"""
  const { Recorder } = require('dsa');

  const rec = new Recorder([3, 1, 2]);
  rec.compare(0, 1);
  rec.swap(0, 1);
  rec.overwrite(2, 7, 'seven');
  rec.markSorted(0);
  rec.done();
  new Recorder([1.5, -0.25]).compare(0, 1);
  new Recorder(['b', 'ä"\n']).swap(0, 1);
  new Recorder([9223372036854775807n, -9223372036854775808n]).compare(0, 1);
  const search = new Recorder();
  search.probe(0, 2, 4, false);
  search.probe(3, 3, 4, true);
  search.probe(5, null, 4, false);
  const graph = new Recorder();
  graph.discover(0);
  graph.visit(0);
  graph.discover(1);
  graph.discover(2, 'ünï "q"\n');
  graph.visit(1);
  graph.step('highlight', { cells: [1, 2] });

  """#,
  "cpp": #"""
  #include <bits/stdc++.h>
  #include <dsa/recorder.hpp>

  int main() {
    dsa::Recorder rec(std::vector<long long>{3, 1, 2});
    rec.compare(0, 1);
    rec.swap(0, 1);
    rec.overwrite(2, 7, "seven");
    rec.markSorted(0);
    rec.done();
    dsa::Recorder(std::vector<double>{1.5, -0.25}).compare(0, 1);
    dsa::Recorder(std::vector<std::string>{"b", "ä\"\n"}).swap(0, 1);
    dsa::Recorder(std::vector<long long>{LLONG_MAX, LLONG_MIN}).compare(0, 1);
    dsa::Recorder search;
    search.probe(0, 2, 4, false);
    search.probe(3, 3, 4, true);
    search.probe(5, std::nullopt, 4, false);
    dsa::Recorder graph;
    graph.discover(0);
    graph.visit(0);
    graph.discover(1);
    graph.discover(2, "ünï \"q\"\n");
    graph.visit(1);
    graph.step("highlight", R"({"cells": [1, 2]})");
  }

  """#,
  "c": #"""
  #include <limits.h>
  #include <dsa/recorder.h>

  int main(void) {
    long long ints[] = {3, 1, 2}, extremes[] = {LLONG_MAX, LLONG_MIN};
    double doubles[] = {1.5, -0.25};
    const char *strings[] = {"b", "ä\"\n"};
    dsa_recorder rec, floats, texts, big, search, graph;
    dsa_recorder_init(&rec, ints, 3);
    dsa_compare(&rec, 0, 1, NULL);
    dsa_swap(&rec, 0, 1, NULL);
    dsa_overwrite(&rec, 2, 7, "seven");
    dsa_mark_sorted(&rec, 0);
    dsa_done(&rec, NULL);
    dsa_recorder_init_double(&floats, doubles, 2);
    dsa_compare(&floats, 0, 1, NULL);
    dsa_recorder_init_strings(&texts, strings, 2);
    dsa_swap(&texts, 0, 1, NULL);
    dsa_recorder_init(&big, extremes, 2);
    dsa_compare(&big, 0, 1, NULL);
    dsa_recorder_init(&search, NULL, 0);
    dsa_probe(&search, 0, 2, 4, 0, NULL);
    dsa_probe(&search, 3, 3, 4, 1, NULL);
    dsa_probe_empty(&search, 5, 4, NULL);
    dsa_recorder_init(&graph, NULL, 0);
    dsa_discover(&graph, 0, NULL);
    dsa_visit(&graph, 0, NULL);
    dsa_discover(&graph, 1, NULL);
    dsa_discover(&graph, 2, "ünï \"q\"\n");
    dsa_visit(&graph, 1, NULL);
    dsa_step(&graph, "highlight", "{\"cells\": [1, 2]}", NULL);
    dsa_recorder_free(&rec);
    dsa_recorder_free(&floats);
    dsa_recorder_free(&texts);
    dsa_recorder_free(&big);
    dsa_recorder_free(&search);
    dsa_recorder_free(&graph);
    return 0;
  }

  """#,
  "java": #"""
  import dsa.Recorder;
  import java.util.List;
  import java.util.Map;

  public class Main {
      public static void main(String[] args) {
          Recorder rec = new Recorder(new long[] {3, 1, 2});
          rec.compare(0, 1);
          rec.swap(0, 1);
          rec.overwrite(2, 7, "seven");
          rec.markSorted(0);
          rec.done();
          new Recorder(new double[] {1.5, -0.25}).compare(0, 1);
          new Recorder(new String[] {"b", "ä\"\n"}).swap(0, 1);
          new Recorder(new long[] {Long.MAX_VALUE, Long.MIN_VALUE}).compare(0, 1);
          Recorder search = new Recorder();
          search.probe(0, 2L, 4, false);
          search.probe(3, 3L, 4, true);
          search.probe(5, null, 4, false);
          Recorder graph = new Recorder();
          graph.discover(0);
          graph.visit(0);
          graph.discover(1);
          graph.discover(2, "ünï \"q\"\n");
          graph.visit(1);
          graph.step("highlight", Map.of("cells", List.of(1, 2)));
      }
  }

  """#,
  "kotlin": #"""
  import dsa.Recorder

  fun main() {
      val rec = Recorder(longArrayOf(3, 1, 2))
      rec.compare(0, 1)
      rec.swap(0, 1)
      rec.overwrite(2, 7L, "seven")
      rec.markSorted(0)
      rec.done()
      Recorder(doubleArrayOf(1.5, -0.25)).compare(0, 1)
      Recorder(arrayOf("b", "ä\"\n")).swap(0, 1)
      Recorder(longArrayOf(Long.MAX_VALUE, Long.MIN_VALUE)).compare(0, 1)
      val search = Recorder()
      search.probe(0, 2L, 4, false)
      search.probe(3, 3L, 4, true)
      search.probe(5, null, 4, false)
      val graph = Recorder()
      graph.discover(0)
      graph.visit(0)
      graph.discover(1)
      graph.discover(2, "ünï \"q\"\n")
      graph.visit(1)
      graph.step("highlight", mapOf("cells" to listOf(1, 2)))
  }

  """#,
  "go": #"""
  package main

  import "dsa"

  func main() {
  	rec := dsa.NewRecorder([]int{3, 1, 2})
  	rec.Compare(0, 1)
  	rec.Swap(0, 1)
  	rec.Overwrite(2, 7, "seven")
  	rec.MarkSorted(0)
  	rec.Done()
  	dsa.NewRecorder([]float64{1.5, -0.25}).Compare(0, 1)
  	dsa.NewRecorder([]string{"b", "ä\"\n"}).Swap(0, 1)
  	dsa.NewRecorder([]int64{9223372036854775807, -9223372036854775808}).Compare(0, 1)
  	search := dsa.NewSearchRecorder()
  	search.Probe(0, 2, 4, false)
  	search.Probe(3, 3, 4, true)
  	search.ProbeEmpty(5, 4)
  	graph := dsa.NewGraphRecorder()
  	graph.Discover(0)
  	graph.Visit(0)
  	graph.Discover(1)
  	graph.Discover(2, "ünï \"q\"\n")
  	graph.Visit(1)
  	graph.Step("highlight", map[string]any{"cells": []int{1, 2}})
  }

  """#,
  "dart": #"""
  import 'package:dsa/dsa.dart';

  void main() {
    final rec = Recorder([3, 1, 2]);
    rec.compare(0, 1);
    rec.swap(0, 1);
    rec.overwrite(2, 7, caption: 'seven');
    rec.markSorted(0);
    rec.done();
    Recorder([1.5, -0.25]).compare(0, 1);
    Recorder(['b', 'ä"\n']).swap(0, 1);
    Recorder([9223372036854775807, -9223372036854775808]).compare(0, 1);
    final search = Recorder();
    search.probe(0, 2, 4, false);
    search.probe(3, 3, 4, true);
    search.probe(5, null, 4, false);
    final graph = Recorder();
    graph.discover(0);
    graph.visit(0);
    graph.discover(1);
    graph.discover(2, caption: 'ünï "q"\n');
    graph.visit(1);
    graph.step('highlight', {'cells': [1, 2]});
  }

  """#,
]

/// Three steps with the learner's own prints between them, through every route the language
/// offers to stdout (C++ with `sync_with_stdio(false)`, so `cout` and `printf` buffer apart).
private let printingProbes: [String: String] = [
  "python": #"""
  import sys
  from dsa import Recorder

  rec = Recorder([2, 1])
  rec.compare(0, 1)
  print("between one")
  sys.stdout.write("between two\n")
  rec.swap(0, 1)
  print("between three")
  rec.done()

  """#,
  "javascript": #"""
  const { Recorder } = require('dsa');

  const rec = new Recorder([2, 1]);
  rec.compare(0, 1);
  console.log('between one');
  process.stdout.write('between two\n');
  rec.swap(0, 1);
  console.log('between three');
  rec.done();

  """#,
  "cpp": #"""
  #include <bits/stdc++.h>
  #include <dsa/recorder.hpp>

  int main() {
    std::ios::sync_with_stdio(false);
    dsa::Recorder rec{2, 1};
    rec.compare(0, 1);
    std::cout << "between one\n";
    std::printf("between two\n");
    rec.swap(0, 1);
    std::cout << "between three" << '\n';
    rec.done();
  }

  """#,
  "c": #"""
  #include <stdio.h>
  #include <dsa/recorder.h>

  int main(void) {
    long long items[] = {2, 1};
    dsa_recorder rec;
    dsa_recorder_init(&rec, items, 2);
    dsa_compare(&rec, 0, 1, NULL);
    printf("between one\n");
    fputs("between two\n", stdout);
    dsa_swap(&rec, 0, 1, NULL);
    puts("between three");
    dsa_done(&rec, NULL);
    dsa_recorder_free(&rec);
    return 0;
  }

  """#,
  "java": #"""
  import dsa.Recorder;

  public class Main {
      public static void main(String[] args) {
          Recorder rec = new Recorder(new long[] {2, 1});
          rec.compare(0, 1);
          System.out.println("between one");
          System.out.print("between two\n");
          rec.swap(0, 1);
          System.out.println("between three");
          rec.done();
      }
  }

  """#,
  "kotlin": #"""
  import dsa.Recorder

  fun main() {
      val rec = Recorder(longArrayOf(2, 1))
      rec.compare(0, 1)
      println("between one")
      print("between two\n")
      rec.swap(0, 1)
      println("between three")
      rec.done()
  }

  """#,
  "go": #"""
  package main

  import (
  	"dsa"
  	"fmt"
  	"os"
  )

  func main() {
  	rec := dsa.NewRecorder([]int{2, 1})
  	rec.Compare(0, 1)
  	fmt.Println("between one")
  	os.Stdout.WriteString("between two\n")
  	rec.Swap(0, 1)
  	fmt.Print("between three\n")
  	rec.Done()
  }

  """#,
  "dart": #"""
  import 'dart:io';
  import 'package:dsa/dsa.dart';

  void main() {
    final rec = Recorder([2, 1]);
    rec.compare(0, 1);
    print('between one');
    print('between two');
    rec.swap(0, 1);
    print('between three');
    rec.done();
    stdout.flush();
  }

  """#,
]

/// Steps until the recorder refuses one; stdout goes to /dev/null (100000 steps are megabytes),
/// and the number of steps that went through is printed on stderr before the refusal ends the
/// program as it would end a learner's.
private let boundProbes: [String: String] = [
  "python": #"""
  import os, sys
  from dsa import Recorder

  os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
  rec = Recorder([1, 2])
  count = 0
  try:
      while True:
          rec.compare(0, 1)
          count += 1
  except Exception:
      print(f"steps written: {count}", file=sys.stderr)
      raise

  """#,
  "javascript": #"""
  const { Recorder } = require('dsa');

  process.stdout.write = () => true;
  const rec = new Recorder([1, 2]);
  let count = 0;
  try {
    for (;;) {
      rec.compare(0, 1);
      count += 1;
    }
  } catch (error) {
    console.error(`steps written: ${count}`);
    throw error;
  }

  """#,
  "cpp": #"""
  #include <bits/stdc++.h>
  #include <fcntl.h>
  #include <dsa/recorder.hpp>

  int main() {
    dup2(open("/dev/null", O_WRONLY), 1);
    dsa::Recorder rec{1, 2};
    long long count = 0;
    try {
      for (;;) {
        rec.compare(0, 1);
        ++count;
      }
    } catch (...) {
      std::cerr << "steps written: " << count << std::endl;
      throw;
    }
  }

  """#,
  "c": #"""
  #include <fcntl.h>
  #include <stdio.h>
  #include <stdlib.h>
  #include <dsa/recorder.h>

  static long long count = 0;
  static void report(void) { fprintf(stderr, "steps written: %lld\n", count); }

  int main(void) {
    long long items[] = {1, 2};
    dsa_recorder rec;
    dup2(open("/dev/null", O_WRONLY), 1);
    atexit(report);
    dsa_recorder_init(&rec, items, 2);
    for (;;) {
      dsa_compare(&rec, 0, 1, NULL);
      count++;
    }
  }

  """#,
  "java": #"""
  import dsa.Recorder;
  import java.io.*;

  public class Main {
      public static void main(String[] args) throws IOException {
          System.setOut(new PrintStream(new FileOutputStream("/dev/null")));
          Recorder rec = new Recorder(new long[] {1, 2});
          long count = 0;
          try {
              for (;;) {
                  rec.compare(0, 1);
                  count++;
              }
          } finally {
              System.err.println("steps written: " + count);
          }
      }
  }

  """#,
  "kotlin": #"""
  import dsa.Recorder
  import java.io.FileOutputStream
  import java.io.PrintStream

  fun main() {
      System.setOut(PrintStream(FileOutputStream("/dev/null")))
      val rec = Recorder(longArrayOf(1, 2))
      var count = 0L
      try {
          while (true) {
              rec.compare(0, 1)
              count++
          }
      } finally {
          System.err.println("steps written: $count")
      }
  }

  """#,
  "go": #"""
  package main

  import (
  	"dsa"
  	"fmt"
  	"os"
  )

  func main() {
  	devnull, _ := os.OpenFile("/dev/null", os.O_WRONLY, 0)
  	os.Stdout = devnull
  	rec := dsa.NewRecorder([]int{1, 2})
  	count := 0
  	defer func() {
  		fmt.Fprintf(os.Stderr, "steps written: %d\n", count)
  		panic(recover())
  	}()
  	for {
  		rec.Compare(0, 1)
  		count++
  	}
  }

  """#,
  "dart": #"""
  import 'dart:async';
  import 'dart:io';
  import 'package:dsa/dsa.dart';

  void main() {
    var count = 0;
    // The recorder prints; 100000 steps go nowhere here.
    runZoned(() {
      final rec = Recorder([1, 2]);
      try {
        for (;;) {
          rec.compare(0, 1);
          count++;
        }
      } finally {
        stderr.writeln('steps written: $count');
      }
    }, zoneSpecification: ZoneSpecification(print: (self, parent, zone, line) {}));
  }

  """#,
]

@Suite struct RecorderLibraryTests {
  @Test(arguments: RecorderFixture.languages)
  func theScenarioWritesExactlyTheSharedSteps(language: String) throws {
    try #require(installed(language), "needs \(language): scripts/install-toolchains \(language)")
    let result = try execute(language, try #require(scenarioProbes[language]))
    #expect(result.run?.status == .ok, "\(result.compileMessages) \(result.stderr)")
    let steps = try RecorderFixture.steps(result.stdout)
    let expected = try RecorderFixture.expectedSteps
    #expect(steps.count == expected.count, "\(result.stdout)")
    for (index, (step, wanted)) in zip(steps, expected).enumerated() {
      #expect(step == wanted, "\(language) step \(index + 1)")
    }
    #expect(try RecorderFixture.lines(result.stdout).count == expected.count, "only step lines: \(result.stdout)")
  }

  @Test(arguments: RecorderFixture.languages)
  func learnersPrintsBetweenStepsKeepTheirPlaceAndLeaveStepLinesWhole(language: String) throws {
    try #require(installed(language), "needs \(language): scripts/install-toolchains \(language)")
    let result = try execute(language, try #require(printingProbes[language]))
    #expect(result.run?.status == .ok, "\(result.compileMessages) \(result.stderr)")
    let lines = try RecorderFixture.lines(result.stdout)
    let shape = lines.map { line -> String in
      switch line {
      case .step(.object(let fields)): if case .string(let action)? = fields["action"] { action } else { "?" }
      case .step: "?"
      case .text(let text): text
      }
    }
    #expect(shape == ["compare", "between one", "between two", "swap", "between three", "done"], "\(result.stdout)")
    guard case .step(let done)? = lines.last else { return }
    #expect(
      done
        == .object([
          "action": .string("done"), "active": .array([]), "array": .array([.integer(1), .integer(2)]),
          "ids": .array([.integer(1), .integer(0)]), "sorted": .array([.integer(0), .integer(1)]),
          "caption": .string("Done"),
        ]))
  }

  @Test(arguments: RecorderFixture.languages)
  func theStepAfterTheHundredThousandthFailsWithAClearMessage(language: String) throws {
    try #require(installed(language), "needs \(language): scripts/install-toolchains \(language)")
    let result = try execute(language, try #require(boundProbes[language])) { $0.runLimits.cpuMilliseconds = 20_000 }
    #expect(result.run?.status == .runtimeError, "\(result.compileMessages) \(result.stderr)")
    #expect(result.stderr.contains("steps written: 100000\n"), "\(result.stderr)")
    #expect(result.stderr.contains(RecorderFixture.tooManySteps), "\(result.stderr)")
  }

  @Test func aMissingRecorderMakesTheLanguageUnavailableWithTheInstallHint() throws {
    let shipped = try String(contentsOfFile: TestExecutors.repositoryRoot + "/runners/python.json", encoding: .utf8)
    let missing = "/nonexistent/dsa-run-recorder-test/python"
    #expect(shipped.contains("\"/opt/dsa-run/recorder/python\""))
    let moved = shipped.replacingOccurrences(of: "/opt/dsa-run/recorder/python", with: missing)
    let runners = try RunnerCatalog.parse(Data(moved.utf8), file: "python.json")
    let base = RunnersFixture.executor
    let executor = Executor(
      environments: base.environments, catalog: RunnerCatalog(languages: ["python": runners]),
      policies: base.policies, cache: nil, probesVersions: false)
    #expect(runners.allSatisfy { !$0.isAvailable })
    let error = #expect(throws: ExecuteError.self) { _ = try executor.runner(language: "python", version: nil) }
    let message = error.map { "\($0)" } ?? ""
    #expect(message.contains("(\(missing) is missing)"), "\(message)")
    #expect(message.contains("install it with: scripts/install-toolchains python"), "\(message)")
  }
}

@Suite struct RecorderMountTests {
  /// A program can read the recorder but neither change it nor add to it: the next learner's
  /// steps come from the library as installed.
  @Test func theRecorderCannotBeChangedFromABox() throws {
    try #require(installed("python"), "needs python: scripts/install-toolchains python")
    let probe = """
      import dsa, os
      for attempt in (lambda: open(dsa.__file__, "a"), lambda: open(os.path.dirname(dsa.__file__) + "/planted.py", "w"),
                      lambda: os.chmod(dsa.__file__, 0o666), lambda: os.rename(dsa.__file__, "/tmp/dsa.py")):
          try:
              attempt()
              print("changed")
          except OSError as error:
              print(error.strerror)
      print(dsa.__file__)

      """
    let result = try execute("python", probe)
    #expect(result.run?.status == .ok, "\(result.stderr)")
    #expect(!result.stdout.contains("changed"), "\(result.stdout)")
    #expect(result.stdout.hasSuffix("/opt/dsa-run/recorder/python/dsa.py\n"), "\(result.stdout)")
  }

  /// The recorder and the function driver start from the bytecode compiled at install (a pyc whose
  /// hash is the source's, so Python takes it), and the recorder leaves `json` (and `re`) unloaded
  /// while it writes JSON exactly as `json.dumps` would, errors included.
  @Test func thePythonRecorderStartsFromItsBytecodeWithoutJson() throws {
    try #require(installed("python"), "needs python: scripts/install-toolchains python")
    let probe = """
      import sys
      import dsa, dsa_function_driver
      print("json" in sys.modules, "re" in sys.modules)
      import importlib.util
      for module in (dsa, dsa_function_driver):
          with open(module.__cached__, "rb") as cached, open(module.__file__, "rb") as source:
              header = cached.read(16)
              flags = int.from_bytes(header[4:8], "little")
              print(module.__name__, flags, header[8:16] == importlib.util.source_hash(source.read()))
      import json
      values = [1, -2**63, 2.5, 1e300, -0.0, 'héllo ✓"\\\\\\n', [1, [2, "x"]], {"a": [None, True]}, {1: 2}, (1, 2), []]
      print(all(dsa._json(value) == json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
                for value in values))
      loop = []
      loop.append(loop)
      for bad in (float("nan"), [float("inf")], object(), {(1, 2): 3}, loop, loop):
          errors = []
          for encode in (dsa._json, lambda value: json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))):
              try:
                  encode(bad)
              except (TypeError, ValueError) as error:
                  errors.append((type(error), str(error)))
          print(errors[0] == errors[1], errors[0][1])
      print(dsa._json([[1], [1]]))

      """
    let result = try execute("python", probe)
    #expect(result.run?.status == .ok, "\(result.stderr)")
    #expect(
      result.stdout == """
        False False
        dsa 3 True
        dsa_function_driver 3 True
        True
        True Out of range float values are not JSON compliant
        True Out of range float values are not JSON compliant
        True Object of type object is not JSON serializable
        True keys must be str, int, float, bool or None, not tuple
        True Circular reference detected
        True Circular reference detected
        [[1],[1]]

        """, "\(result.stderr)")
  }
}

@Suite struct RecorderNameTests {
  /// The learner's own `dsa.py` is a module like any other and wins, as docs/challenges.md says.
  @Test func aLearnersOwnDsaModuleShadowsThePythonRecorder() throws {
    try #require(installed("python"), "needs python: scripts/install-toolchains python")
    let result = try executeFiles(
      "python",
      [
        ("main.py", "from dsa import Recorder\nprint(Recorder.__module__, Recorder().where())\n"),
        ("dsa.py", "class Recorder:\n    def where(self):\n        return 'mine'\n"),
      ])
    #expect(result.stdout == "dsa mine\n", "\(result.stderr)")
  }

  /// Node finds `require('dsa')` only through NODE_PATH: a learner's `dsa.js` is theirs by `./dsa`,
  /// and the library stays what `dsa` names.
  @Test func aLearnersOwnDsaFileLeavesTheJavaScriptRecorderInPlace() throws {
    try #require(installed("javascript"), "needs javascript: scripts/install-toolchains javascript")
    let result = try executeFiles(
      "javascript",
      [
        (
          "main.js",
          "const { Recorder } = require('dsa');\nconsole.log(require('./dsa').mine);\nnew Recorder([1]).done();\n"
        ),
        ("dsa.js", "exports.mine = 'mine';\n"),
      ])
    #expect(result.run?.status == .ok, "\(result.stderr)")
    #expect(try RecorderFixture.lines(result.stdout).count == 2, "\(result.stdout)")
    #expect(result.stdout.hasPrefix("mine\n@step {\"action\":\"done\""), "\(result.stdout)")
  }

  /// `<dsa/recorder.hpp>` comes from `-I`: a learner's header of that name, included with angle
  /// brackets, does not replace it.
  @Test func aLearnersOwnHeaderOfTheSameNameLeavesTheCppRecorderInPlace() throws {
    try #require(installed("cpp"), "needs cpp: scripts/install-toolchains cpp")
    let result = try executeFiles(
      "cpp",
      [
        (
          "main.cpp",
          uniqueComment() + "#include <dsa/recorder.hpp>\nint main() { dsa::Recorder rec{1}; rec.done(); }\n"
        ),
        ("recorder.hpp", "#error \"the learner's header\"\n"),
      ])
    #expect(result.run?.status == .ok, "\(result.compileMessages)")
    #expect(result.stdout.hasPrefix("@step {\"action\":\"done\""), "\(result.stdout)")
  }
}

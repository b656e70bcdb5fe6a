import Foundation
import Glibc
import SandboxTesting
import SystemCore
import Testing

@testable import Sandbox

// The CLI at a terminal, driven on a real pseudo-terminal (Python's pty module): what is typed
// reaches the program as typed, Ctrl-D ends input, Ctrl-C stops the program and leaves nothing.

/// The built `dsa-run` next to the test bundle.
let dsaRunBinary: String = {
  let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
  var directory = testBinary.deletingLastPathComponent()
  for _ in 0..<4 {
    let candidate = directory.appendingPathComponent("dsa-run").path
    if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    directory.deleteLastPathComponent()
  }
  return TestPaths.repositoryRoot + "/.build/debug/dsa-run"
}()

enum TestPaths {
  static let repositoryRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
  }()
  static let workRoot = "/run/dsa-run-live-cli-tests"
  static let cache = NSTemporaryDirectory() + "dsa-run-live-cli-cache"
}

struct TerminalSession: Decodable {
  var pid: Int32
  var status: Int32?
  var output: String
  var missing: String?
}

/// Runs `dsa-run ARGS` on a pseudo-terminal through the actions (`Scripts/pty-driver.py`).
func atTerminal(_ actions: [[String]], _ arguments: [String]) throws -> TerminalSession {
  let process = ChildProcess()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
  let actionsJSON = String(decoding: try JSONSerialization.data(withJSONObject: actions), as: UTF8.self)
  process.arguments =
    [TestPaths.repositoryRoot + "/Tests/LiveTests/Scripts/pty-driver.py", actionsJSON, dsaRunBinary]
    + arguments + ["--work-root", TestPaths.workRoot, "--cache-dir", TestPaths.cache]
  let output = ProcessLaunch.pipe()
  process.standardOutput = output
  try process.run()
  let data = output.fileHandleForReading.readToEndRetryingInterrupts()
  process.waitUntilExit()
  return try JSONDecoder().decode(TerminalSession.self, from: data)
}

func sourceFile(_ text: String, name: String) throws -> String {
  let directory = NSTemporaryDirectory() + "dsa-run-live-cli-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
  try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  let path = directory + "/" + name
  try text.write(toFile: path, atomically: true, encoding: .utf8)
  return path
}

@Suite("The CLI at a terminal", .serialized)
struct CLITerminalTests {
  @Test("typing reaches the program as typed, and the program sees a terminal")
  func typing() throws {
    let path = try sourceFile(
      "import os\nname = input('Name? ')\nprint(f'Hello, {name}!', os.isatty(0))\n", name: "hello.py")
    let session = try atTerminal(
      [["expect", "Name? "], ["send", "Ada\r"], ["expect", "Hello, Ada! True"]], ["--lang", "python", path])
    #expect(session.missing == nil, "\(session.output.debugDescription)")
    #expect(session.status == 0, "\(session.output.debugDescription)")
    // Echoed once, by the box's terminal: the user's own terminal does not echo as well.
    #expect(session.output.components(separatedBy: "Ada").count == 3, "\(session.output.debugDescription)")
  }

  @Test("Ctrl-D ends input")
  func controlD() throws {
    let path = try sourceFile(
      "import sys\nprint('ready', flush=True)\ndata = sys.stdin.read()\nprint('lines', len(data.splitlines()))\n",
      name: "count.py")
    // Typed once the program runs: typed ahead, before dsa-run set the terminal up, ^D would be the
    // user's terminal's own end of input.
    let session = try atTerminal(
      [["expect", "ready"], ["send", "one\rtwo\r"], ["expect", "two"], ["send", "\u{04}"], ["expect", "lines 2"]],
      ["--lang", "python", path])
    #expect(session.missing == nil, "\(session.output.debugDescription)")
    #expect(session.status == 0, "\(session.output.debugDescription)")
  }

  @Test("Ctrl-C stops the program, exits 130 and leaves no box directory or cgroup")
  func controlC() throws {
    let path = try sourceFile("print('waiting', flush=True)\ninput()\n", name: "wait.py")
    let session = try atTerminal([["expect", "waiting"], ["send", "\u{03}"]], ["--lang", "python", path])
    #expect(session.missing == nil, "\(session.output.debugDescription)")
    #expect(session.status == 130, "\(session.output.debugDescription)")
    #expect(
      leftovers(of: session.pid, workRoot: TestPaths.workRoot).isEmpty,
      "\(leftovers(of: session.pid, workRoot: TestPaths.workRoot))")
  }

  @Test("a traceback names the learner's file, not the box's")
  func tracebackNamesTheLearnersFile() throws {
    let path = try sourceFile("def f():\n    raise ValueError('boom')\nf()\n", name: "exc.py")
    let session = try atTerminal([["expect", "dsa-run: runtime_error"]], [path])
    #expect(session.missing == nil, "\(session.output.debugDescription)")
    #expect(session.status == 1, "\(session.output.debugDescription)")
    #expect(session.output.contains("File \"exc.py\", line 3"), "\(session.output.debugDescription)")
    #expect(!session.output.contains("/box/"), "\(session.output.debugDescription)")
  }

  @Test("dsa-run's line starts a line of its own after output that did not end one")
  func ownLineAfterAnUnfinishedLine() throws {
    let path = try sourceFile(
      "import sys\nsys.stdout.write('no newline')\nsys.stdout.flush()\nsys.exit(3)\n", name: "partial.py")
    let session = try atTerminal([["expect", "dsa-run: runtime_error"]], ["--lang", "python", path])
    #expect(session.status == 3, "\(session.output.debugDescription)")
    #expect(session.output.contains("no newline\r\ndsa-run: runtime_error"), "\(session.output.debugDescription)")
    // After a whole line, no empty line: one line feed between (the box's terminal and the user's
    // each turn it into CR LF, hence "\r\r\n").
    let whole = try sourceFile("import sys\nprint('a line')\nsys.exit(3)\n", name: "whole.py")
    let ended = try atTerminal([["expect", "dsa-run: runtime_error"]], ["--lang", "python", whole])
    let between = ended.output.components(separatedBy: "a line").last?.components(separatedBy: "dsa-run:").first
    #expect(between.map { Array($0.utf8) } == Array("\r\r\n".utf8), "\(ended.output.debugDescription)")
  }

  @Test("Ctrl-C at a prompt leaves the shell's prompt on a line of its own")
  func controlCAtAPrompt() throws {
    let path = try sourceFile("input('Name? ')\n", name: "ask.py")
    let session = try atTerminal([["expect", "Name? "], ["send", "\u{03}"]], ["--lang", "python", path])
    #expect(session.status == 130, "\(session.output.debugDescription)")
    #expect(session.output.hasSuffix("Name? \r\n"), "\(session.output.debugDescription)")
  }

  @Test("an interactive run is not ended by a run's wall limit while the learner thinks")
  func interactiveRunOutlivesTheRunWallLimit() throws {
    let path = try sourceFile("name = input('Name? ')\nprint(f'Hello, {name}!')\n", name: "slow.py")
    // 11 s before the answer: past the 10 s wall limit of a run that is not interactive.
    let session = try atTerminal(
      [["expect", "Name? "], ["sleep", "11"], ["send", "Ada\r"], ["expect", "Hello, Ada!"]],
      ["--lang", "python", path])
    #expect(session.missing == nil, "\(session.output.debugDescription)")
    #expect(session.status == 0, "\(session.output.debugDescription)")
  }

  @Test("--live-wall-limit bounds an interactive run")
  func liveWallLimit() throws {
    let path = try sourceFile("print('waiting', flush=True)\ninput()\n", name: "waits.py")
    let session = try atTerminal(
      [["expect", "waiting"], ["expect", "dsa-run: time_limit"]], ["--lang", "python", path, "--live-wall-limit", "2"])
    #expect(session.missing == nil, "\(session.output.debugDescription)")
    #expect(session.status == 124, "\(session.output.debugDescription)")
    #expect(session.output.contains("Killed after 2 s of wall time"), "\(session.output.debugDescription)")
  }

  @Test("the idle rule ends an interactive run nobody types into, and typing keeps it going")
  func idleRule() throws {
    let path = try sourceFile(
      "for round in range(3):\n    print('line?', flush=True)\n    input()\nprint('three lines')\n", name: "lines.py")
    // A line every 1.5 s keeps a 2.5 s idle bound from ending a run of 4.5 s and more.
    let typing = try atTerminal(
      [
        ["expect", "line?"], ["sleep", "1.5"], ["send", "a\r"], ["sleep", "1.5"], ["send", "b\r"], ["sleep", "1.5"],
        ["send", "c\r"], ["expect", "three lines"],
      ], ["--lang", "python", path, "--idle-limit", "2.5"])
    #expect(typing.missing == nil, "\(typing.output.debugDescription)")
    #expect(typing.status == 0, "\(typing.output.debugDescription)")
    let idle = try atTerminal(
      [["expect", "line?"], ["expect", "dsa-run: time_limit"]], ["--lang", "python", path, "--idle-limit", "2"])
    #expect(idle.missing == nil, "\(idle.output.debugDescription)")
    #expect(idle.status == 124, "\(idle.output.debugDescription)")
    #expect(idle.output.contains("the session was idle"), "\(idle.output.debugDescription)")
  }

  @Test("the CPU limit holds at a terminal")
  func cpuLimit() throws {
    let path = try sourceFile("print('spinning', flush=True)\nwhile True:\n    pass\n", name: "spin.py")
    let session = try atTerminal(
      [["expect", "spinning"], ["expect", "dsa-run: time_limit"]], ["--lang", "python", path, "--time-limit", "1"])
    #expect(session.status == 124, "\(session.output.debugDescription)")
    // "all" when the count stopped exactly at the limit, "more than" past it: both are the limit holding.
    #expect(
      session.output.contains("Used more than 1 s of CPU time") || session.output.contains("Used all 1 s of CPU time"),
      "\(session.output.debugDescription)")
  }

  /// `dsa-run ... | less` before the pager reads: the program's output cannot reach the user's
  /// stdout, and the run's limits must hold meanwhile. The program fills the 64 KiB pipe and goes
  /// on to spin; written from the thread that enforces the limits, the write blocked it, and only
  /// RLIMIT_CPU's backstop (2 s) stopped the spinner.
  @Test("a stdout that is not read does not hold the run's limits")
  func unreadStdout() throws {
    let path = try sourceFile(
      "import sys\nsys.stdout.write('x' * 66 * 1024)\nsys.stdout.flush()\nwhile True:\n    pass\n", name: "fill.py")
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = [
      TestPaths.repositoryRoot + "/Tests/LiveTests/Scripts/pty-slow-stdout.py", "8", dsaRunBinary, "--lang", "python",
      path, "--time-limit", "1", "--work-root", TestPaths.workRoot, "--cache-dir", TestPaths.cache,
    ]
    let output = ProcessLaunch.pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readToEndRetryingInterrupts()
    process.waitUntilExit()
    struct Finished: Decodable {
      var status: Int32?
      var terminal: String
      var stdoutBytes: Int
      enum CodingKeys: String, CodingKey {
        case status, terminal
        case stdoutBytes = "stdout_bytes"
      }
    }
    let finished = try JSONDecoder().decode(Finished.self, from: data)
    #expect(finished.status == 124, "\(finished.terminal.debugDescription)")
    #expect(finished.stdoutBytes == 66 * 1024)
    let used = finished.terminal.firstRange(of: /it used ([0-9.]+) s/).flatMap { match in
      Double(finished.terminal[match].dropFirst("it used ".count).dropLast(2))
    }
    let seconds = try #require(used, "\(finished.terminal.debugDescription)")
    #expect(seconds < 1.8, "\(finished.terminal.debugDescription)")
  }

  @Test("--no-tty: a pipe, lines as the user's terminal sends them")
  func noTerminal() throws {
    let path = try sourceFile("import os\nprint(input(), os.isatty(0))\n", name: "pipe.py")
    let session = try atTerminal(
      [["expect", ""], ["send", "Ada\r"], ["expect", "Ada False"]], ["--lang", "python", path, "--no-tty"])
    #expect(session.missing == nil, "\(session.output.debugDescription)")
    #expect(session.status == 0)
  }
}

/// The bytes `command` writes, run on a pseudo-terminal by util-linux `script` (what the user's
/// terminal would get), or with its stdout a pipe.
func outputBytes(_ command: [String], atTerminal: Bool) throws -> [UInt8] {
  let process = ChildProcess()
  if atTerminal {
    let quoted = command.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
    process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
    process.arguments = ["-qec", quoted, "/dev/null"]
  } else {
    process.executableURL = URL(fileURLWithPath: command[0])
    process.arguments = Array(command.dropFirst())
  }
  process.standardInput = FileHandle.nullDevice
  let output = ProcessLaunch.pipe()
  process.standardOutput = output
  try process.run()
  let data = output.fileHandleForReading.readToEndRetryingInterrupts()
  process.waitUntilExit()
  return Array(data)
}

/// Escape sequences a program prints reach the user's terminal only when they colour or move the
/// cursor: OSC 52 (clipboard), a title, a title report and a cursor position query (7-bit and
/// 8-bit) are shown as text; a pipe, and the terminal with --raw-output, get every byte as printed.
@Suite("The CLI's output at a terminal", .serialized)
struct CLIOutputFilterTests {
  static let source = #"""
    import sys
    out = sys.stdout.buffer
    out.write(b'\x1b]52;c;SGVsbG8=\x07' + b'\x1b]0;pwned\x07' + b'\x1b[21t' + b'\x1b[6n' + b'\x9b6n')
    out.write(b'\x1b[31mred\x1b[0m\n')
    out.write(b'\rprogress 50%\rprogress 100%\n')
    out.flush()

    """#
  static let refused: [[UInt8]] = [
    Array("\u{1B}]52;".utf8), Array("\u{1B}]0;".utf8), Array("\u{1B}[21t".utf8), Array("\u{1B}[6n".utf8), [0x9B],
  ]

  static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard needle.count <= haystack.count else { return false }
    return (0...(haystack.count - needle.count)).contains { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
  }

  @Test(arguments: [false, true])
  func escapeSequencesAreShownAtATerminalAndPassedToAPipe(raw: Bool) throws {
    let path = try sourceFile(Self.source, name: "escapes.py")
    let command =
      [dsaRunBinary, "--lang", "python", path, "--work-root", TestPaths.workRoot, "--cache-dir", TestPaths.cache]
      + (raw ? ["--raw-output"] : [])
    let terminal = try outputBytes(command, atTerminal: true)
    let shown = String(decoding: terminal, as: UTF8.self)
    #expect(shown.contains("\u{1B}[31mred\u{1B}[0m"), "\(shown.debugDescription)")
    #expect(shown.contains("\rprogress 50%\rprogress 100%"), "\(shown.debugDescription)")
    for sequence in Self.refused {
      #expect(Self.contains(terminal, sequence) == raw, "\(sequence) at the terminal: \(shown.debugDescription)")
    }
    if !raw {
      for visible in ["^[]52;c;SGVsbG8=", "^[]0;pwned", "^[[21t", "^[[6n^[[6n"] {
        #expect(shown.contains(visible), "\(visible): \(shown.debugDescription)")
      }
    }
    let piped = try outputBytes(command, atTerminal: false)
    for sequence in Self.refused { #expect(Self.contains(piped, sequence), "\(sequence) through a pipe") }
    #expect(Self.contains(piped, Array("\u{1B}[31mred\u{1B}[0m\n\rprogress 50%".utf8)))
  }
}

@Suite("The CLI with piped stdin")
struct CLIPipedTests {
  @Test("piped stdin is streamed: a program waiting for it ends at its wall limit, not when the pipe ends")
  func wallLimitWhileThePipeWaits() throws {
    let path = try sourceFile("print('first', flush=True)\nprint(input())\n", name: "p.py")
    let shell = ChildProcess()
    shell.executableURL = URL(fileURLWithPath: "/bin/sh")
    shell.arguments = [
      "-c",
      "(sleep 8; echo hi) | { \"$0\" --lang python \"$1\" --wall-limit 2 --work-root \"$2\" --cache-dir \"$3\"; "
        + "echo \"exit $?\"; date +%s.%N; }",
      dsaRunBinary, path, TestPaths.workRoot, TestPaths.cache,
    ]
    let output = ProcessLaunch.pipe()
    shell.standardOutput = output
    let started = Date().timeIntervalSince1970
    try shell.run()
    let data = output.fileHandleForReading.readToEndRetryingInterrupts()
    shell.waitUntilExit()
    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
    #expect(lines.first == "first")
    #expect(lines.contains("exit 124"), "\(lines)")
    let ended = try #require(lines.last.flatMap { Double($0) })
    // dsa-run itself ended by its 2 s wall limit, well before the pipe's writer (8 s).
    #expect(ended - started < 7, "dsa-run ended \(ended - started) s after it started")
  }
}

import Foundation
import Glibc
import Grading
import Runners
import Sandbox
import SandboxTesting
import SystemCore
import Testing

// Live runs on real warm boxes: stdin typed while the program runs, output as it is produced.

/// A prompt, one line read with the language's own input API, an answer.
let promptPrograms: [(language: String, source: String)] = [
  ("python", "name = input(\"Name? \")\nprint(f\"Hello, {name}!\")\n"),
  (
    "javascript",
    """
    const readline = require('readline');
    const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
    rl.question('Name? ', (name) => { console.log(`Hello, ${name}!`); rl.close(); });

    """
  ),
  (
    "java",
    """
    import java.util.Scanner;
    public class Main {
      public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        System.out.print("Name? ");
        System.out.flush();
        String name = in.nextLine();
        System.out.println("Hello, " + name + "!");
      }
    }

    """
  ),
  (
    "cpp",
    """
    #include <iostream>
    #include <string>
    int main() {
      std::string name;
      std::cout << "Name? ";
      std::cin >> name;
      std::cout << "Hello, " << name << "!" << std::endl;
    }

    """
  ),
  (
    "kotlin",
    """
    fun main() {
      print("Name? ")
      System.out.flush()
      val name = readLine()
      println("Hello, $name!")
    }

    """
  ),
  (
    "go",
    """
    package main

    import (
      "bufio"
      "fmt"
      "os"
    )

    func main() {
      fmt.Print("Name? ")
      scanner := bufio.NewScanner(os.Stdin)
      scanner.Scan()
      fmt.Printf("Hello, %s!\\n", scanner.Text())
    }

    """
  ),
  (
    "dart",
    """
    import 'dart:io';
    void main() {
      stdout.write('Name? ');
      final name = stdin.readLineSync();
      print('Hello, $name!');
    }

    """
  ),
]

@Suite("Live runs", .serialized)
struct LiveRunTests {
  @Test(
    "the prompt arrives before the input is sent, and the answer after",
    arguments: promptPrograms.map(\.language), [false, true])
  func promptThenEcho(language: String, tty: Bool) throws {
    try #require(LiveFixture.isInstalled(language), "\(language) is not installed here")
    let source = promptPrograms.first { $0.language == language }!.source
    var options = LiveOptions()
    options.tty = tty
    let run = LiveRunThread(language, source, options: options) { $0.runLimits.wallMilliseconds = 60_000 }
    // On a terminal Node's readline draws its prompt with cursor moves of its own.
    let prompted = run.recorder.wait { tty ? $0.stdout.contains("Name? ") : $0.stdout.hasSuffix("Name? ") }
    if !prompted { run.input.kill() }
    #expect(prompted, "no prompt before any input; so far: \(run.recorder.stdout.debugDescription)")
    #expect(run.input.send(Array("Ada\n".utf8)))
    #expect(run.recorder.wait { $0.stdout.contains("Hello, Ada!") }, "\(run.recorder.stdout.debugDescription)")
    run.input.finish()
    let result = try run.result()
    #expect(result.run?.status == .ok, "\(result.messages)")
    // A terminal echoes what was typed and ends lines with CR LF.
    if !tty || language != "javascript" {
      #expect(result.stdout == (tty ? "Name? Ada\r\nHello, Ada!\r\n" : "Name? Hello, Ada!\n"))
    }
    // Stages in order: compile (when a compile box ran), then run, whose finish is the last event.
    let stages = run.recorder.all.compactMap { event -> String? in
      switch event {
      case .stageStarted(let stage): return "\(stage.rawValue) started"
      case .stageFinished(let stage, let status, _): return "\(stage.rawValue) \(status)"
      default: return nil
      }
    }
    #expect(stages.suffix(2) == ["run started", "run ok"])
    if result.compile != nil { #expect(stages.prefix(2) == ["compile started", "compile ok"]) }
    #expect(!run.input.send(Array("late\n".utf8)), "a send after the run must say the run is over")
  }

  @Test("steps are reported as their lines complete, as the result's steps")
  func stepsLive() throws {
    let source = """
      import sys
      print('@step {"i": 1}', flush=True)
      sys.stdin.readline()
      print('@step {"i": 2, "caption": "two"}\\n@step not json\\n@step {"i": 3}', end="")

      """
    let run = LiveRunThread("python", source)
    let first = run.recorder.wait { recorder in
      recorder.all.contains { if case .step = $0 { return true } else { return false } }
    }
    #expect(first, "the first step came before any input")
    run.input.send(Array("go\n".utf8))
    let result = try run.result()
    let steps = run.recorder.all.compactMap { event -> Step? in
      if case .step(let step) = event { return step }
      return nil
    }
    #expect(steps.map(\.object) == result.wire().steps)
    #expect(steps.count == 3)
  }

  @Test(
    "a traceback names the learner's file, live and in the result, at a terminal as without one",
    arguments: [false, true])
  func tracebackNamesTheLearnersFile(tty: Bool) throws {
    var options = LiveOptions()
    options.tty = tty
    let source = "def f():\n    raise ValueError('boom')\nf()\n"
    let run = LiveRunThread("python", source, options: options) { request in
      request.files = [SourceFile(name: "exc.py", contents: Data(source.utf8))]
    }
    let result = try run.result()
    #expect(result.run?.status == .runtimeError, "\(result.messages)")
    // With a terminal the program's stderr is its stdout.
    let live = String(
      decoding: run.recorder.all.flatMap { event -> [UInt8] in
        switch event {
        case .stdout(let bytes), .stderr(let bytes): return bytes
        default: return []
        }
      }, as: UTF8.self)
    let kept = String(decoding: tty ? result.run?.stdout ?? Data() : result.run?.stderr ?? Data(), as: UTF8.self)
    for text in [live, kept] {
      #expect(text.contains("File \"exc.py\", line 3"), "\(text.debugDescription)")
      #expect(!text.contains("/box/"), "\(text.debugDescription)")
    }
  }

  @Test("a prompt that ends where a path could begin shows while the program waits for input")
  func promptEndingInAPathsStartShows() throws {
    var options = LiveOptions()
    options.tty = true
    // "file" begins "file:///box/exc.py": it is held until the output rests, then shown as it is.
    let source = "name = input('Save to file')\nprint('saved', name)\n"
    let run = LiveRunThread("python", source, options: options) { request in
      request.files = [SourceFile(name: "exc.py", contents: Data(source.utf8))]
      request.runLimits.wallMilliseconds = 60_000
    }
    let prompted = run.recorder.wait { $0.stdout.hasSuffix("Save to file") }
    if !prompted { run.input.kill() }
    #expect(prompted, "no prompt before any input; so far: \(run.recorder.stdout.debugDescription)")
    #expect(run.input.send(Array("x\n".utf8)))
    let result = try run.result()
    #expect(result.stdout == "Save to filex\r\nsaved x\r\n", "\(result.messages)")
  }

  @Test("kill stops a program mid-run; the outcome says it was stopped on request")
  func killMidRun() throws {
    let run = LiveRunThread("python", "import time\nprint('up', flush=True)\ntime.sleep(30)\n")
    #expect(run.recorder.wait { $0.stdout.contains("up") })
    let killed = Date()
    run.input.kill()
    let result = try run.result()
    #expect(Date().timeIntervalSince(killed) < 10)
    #expect(result.run?.status == .runtimeError)
    #expect(result.run?.message.contains("on request") == true, "\(result.messages)")
  }

  @Test("a program waiting for input still ends at its wall limit")
  func wallLimitWhileWaiting() throws {
    let run = LiveRunThread("python", "input()\n") { $0.runLimits.wallMilliseconds = 1_000 }
    let result = try run.result()
    #expect(result.run?.status == .timeLimit)
    #expect(result.run?.timeLimitKind == .wall)
  }

  @Test("an idle session ends at its idle limit; input keeps it alive")
  func idleLimit() throws {
    var options = LiveOptions()
    options.idleLimitMs = 600
    let source = "while True:\n    line = input()\n    print(line, flush=True)\n"
    let run = LiveRunThread("python", source, options: options) { $0.runLimits.wallMilliseconds = 30_000 }
    // Typing every 200 ms for 2 s, past the idle bound several times over.
    for index in 0..<10 {
      usleep(200_000)
      #expect(run.input.send(Array("line \(index)\n".utf8)), "the run ended while input was typed")
    }
    let result = try run.result()
    #expect(result.run?.status == .timeLimit, "\(result.messages)")
    #expect(result.run?.message.contains("idle") == true, "\(result.messages)")
    #expect(result.stdout.contains("line 9\n"))
  }

  @Test("1 MiB pasted into stdin arrives whole")
  func pasteOneMebibyte() throws {
    let source =
      "import sys, hashlib\ndata = sys.stdin.buffer.read()\nprint(len(data), hashlib.sha256(data).hexdigest())\n"
    let run = LiveRunThread("python", source) { $0.runLimits.wallMilliseconds = 30_000 }
    var paste = [UInt8]()
    for line in 0..<16_384 { paste += Array(String(format: "%063d\n", line).utf8) }
    #expect(paste.count == 1 << 20)
    #expect(run.input.send(paste))
    run.input.finish()
    let result = try run.result()
    let digest = try #require(runHost(["/usr/bin/sha256sum"], stdin: paste).split(separator: " ").first)
    #expect(result.stdout == "\(1 << 20) \(digest)\n", "\(result.messages)")
  }

  @Test("an output flood to a slow client waits for it: memory stays bounded and the wall limit holds")
  func floodWithSlowClient() throws {
    // The client takes 64 KiB per 20 ms, far slower than the program writes, and pauses the
    // output while 256 KiB wait on its side.
    let consumer = PacedConsumer(pauseAbove: 256 << 10, resumeBelow: 64 << 10)
    let before = residentKilobytes()
    let started = Date()
    let run = LiveRunThread(
      "python", "import sys\nwhile True:\n    sys.stdout.write('x' * 65536)\n",
      react: LiveReaction(consumer.take)
    ) {
      $0.runLimits.wallMilliseconds = 1_000
      $0.runLimits.outputKilobytes = 64 << 10
    }
    consumer.startTaking(from: run.input, bytesPerTick: 64 << 10, tickMicroseconds: 20_000)
    defer { consumer.stop() }
    let result = try run.result()
    let elapsed = Date().timeIntervalSince(started)
    let counts = consumer.snapshot
    #expect(result.run?.status == .timeLimit, "\(result.messages)")
    #expect(elapsed < 10, "the 1 s run ended after \(elapsed) s")
    // What the program printed is what the client was handed: nothing more was read.
    #expect(counts.received == result.run?.stdout.count)
    #expect(counts.pauses > 0, "the flood never filled the client's queue")
    // The client pauses on the chunk that takes it past 256 KiB (so up to 320 KiB); after that only
    // the chunk being handed over (64 KiB) and, at the end, what the pipe held (64 KiB more) may arrive.
    #expect(counts.peakQueued <= (256 + 64 + 64 + 64) << 10, "\(counts.peakQueued) bytes waited on the client's side")
    // At 64 KiB per 20 ms the client takes ~3 MiB in the 1 s run; a pump that kept reading would
    // have handed over tens of MiB (the cap is 64 MiB).
    #expect(counts.received <= 8 << 20, "\(counts.received) bytes were handed over in a 1 s run")
    #expect(residentKilobytes() - before < 200 << 10)
  }
}

/// This process's resident set, in KiB.
func residentKilobytes() -> Int {
  guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
    let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
  else { return 0 }
  return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
}

/// A trusted host command's stdout.
func runHost(_ argv: [String], stdin: [UInt8]) throws -> String {
  let process = ChildProcess()
  process.executableURL = URL(fileURLWithPath: argv[0])
  process.arguments = Array(argv.dropFirst())
  let input = ProcessLaunch.pipe()
  let output = ProcessLaunch.pipe()
  process.standardInput = input
  process.standardOutput = output
  try process.run()
  input.fileHandleForWriting.write(Data(stdin))
  try input.fileHandleForWriting.close()
  let data = output.fileHandleForReading.readToEndRetryingInterrupts()
  process.waitUntilExit()
  return String(decoding: data, as: UTF8.self)
}

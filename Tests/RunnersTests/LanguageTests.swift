import Foundation
import Glibc
import Testing

@testable import Runners
@testable import Sandbox

// Every language, every probe: the program behaves as on the learner's own
// machine, and the limits give honest verdicts.

enum Check: String, CaseIterable, Sendable {
  case hello, sum, arguments, utf8, compileError, crash, infiniteLoop, allocate, endlessPrint, connect, readShadow
  case selfTest, compileCacheHit
}

func installed(_ language: String) -> Bool { RunnersFixture.isInstalled(language) }

/// A TCP listener on 127.0.0.1 for the connect probe; nothing may reach it.
final class LoopbackListener {
  let fd: Int32
  let port: UInt16

  init() {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    self.fd = fd
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    _ = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    listen(fd, 4)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    self.port = UInt16(bigEndian: address.sin_port)
    _ = fcntl(fd, F_SETFL, O_NONBLOCK)
  }

  var somebodyConnected: Bool { accept(fd, nil, nil) >= 0 }

  deinit { close(fd) }
}

func verify(_ language: String, _ check: Check) throws {
  let program = try #require(programs.first { $0.language == language }, "no probe programs for \(language)")
  switch check {
  case .hello:
    let result = try execute(language, program.hello)
    #expect(result.run?.status == .ok, "\(result.compileMessages) \(result.stderr)")
    #expect(result.stdout == "Hello, World!\n")
  case .sum:
    let numbers = (0..<100_000).map { ($0 * 7919) % 100_003 - 50_000 }
    let input =
      stride(from: 0, to: numbers.count, by: 10).map {
        numbers[$0..<min($0 + 10, numbers.count)].map(String.init).joined(separator: " ")
      }.joined(separator: "\n") + "\n"
    let result = try execute(language, program.sum, stdin: input)
    #expect(result.run?.status == .ok, "\(result.compileMessages) \(result.stderr)")
    #expect(result.stdout == "\(numbers.reduce(0, +))\n")
  case .arguments:
    let result = try execute(language, program.arguments, arguments: ["one", "two words", "ü"])
    #expect(result.stdout == "one|two words|ü\n", "\(result.compileMessages) \(result.stderr)")
  case .utf8:
    let result = try execute(language, program.utf8)
    #expect(result.stdout == "héllo ✓ 世界\n", "\(result.compileMessages) \(result.stderr)")
  case .compileError:
    let result = try execute(language, program.compileError)
    if let compile = result.compile {
      #expect(compile.status == .compileError)
      #expect(result.run == nil)
      #expect(!result.compileMessages.isEmpty)
      #expect(!result.compileMessages.contains("/box/"), "paths must be the learner's: \(result.compileMessages)")
      #expect(result.compileMessages.contains(":2"), "the message names line 2: \(result.compileMessages)")
    } else {
      #expect(result.run?.status == .runtimeError)
      #expect(result.stderr.contains("2"), "\(result.stderr)")
    }
  case .crash:
    let result = try execute(language, program.crash)
    #expect(result.run?.status == .runtimeError, "\(result.compileMessages)")
    // A segfault prints nothing of its own in C and C++.
    if language != "cpp" && language != "c" { #expect(!result.stderr.isEmpty) }
  case .infiniteLoop:
    let result = try execute(language, program.infiniteLoop) { $0.runLimits.cpuMilliseconds = 1_000 }
    #expect(result.run?.status == .timeLimit, "\(result.compileMessages)")
    #expect(result.run?.timeLimitKind == .cpu)
  case .allocate:
    let result = try execute(language, program.allocate) { $0.runLimits.memoryMegabytes = 256 }
    #expect(result.run?.status == .memoryLimit, "\(result.compileMessages) \(result.stderr.prefix(500))")
  case .endlessPrint:
    let result = try execute(language, program.endlessPrint) { $0.runLimits.outputKilobytes = 64 }
    #expect(result.run?.status == .outputLimit, "\(result.compileMessages)")
    #expect(result.stdout.hasPrefix("spam spam spam\n"))
  case .connect:
    let listener = LoopbackListener()
    let source = program.connect.replacingOccurrences(of: "PORT", with: String(listener.port))
    let result = try execute(language, source)
    #expect(result.run?.status == .ok, "\(result.compileMessages) \(result.stderr)")
    #expect(result.stdout.hasPrefix("refused"), "\(result.stdout)")
    #expect(!listener.somebodyConnected)
  case .readShadow:
    let result = try execute(language, program.readShadow)
    #expect(result.stdout == "denied\n", "\(result.compileMessages) \(result.stderr)")
  case .selfTest:
    for runner in RunnersFixture.executor.catalog.language(named: language) ?? [] where runner.isAvailable {
      let result = try execute(language, runner.selfTest.source, stdin: runner.selfTest.stdin) {
        $0.version = runner.version
      }
      #expect(
        result.stdout == runner.selfTest.stdout,
        "\(runner.language) \(runner.version): \(result.compileMessages) \(result.stderr)")
    }
  case .compileCacheHit:
    let source =
      program.hello
      + "\n// \(UInt64.random(in: 0...UInt64.max))\n".replacingOccurrences(
        of: "//", with: language == "python" ? "#" : "//")
    let first = try execute(language, source)
    let second = try execute(language, source)
    #expect(!first.compileCacheHit)
    let compiled = RunnersFixture.executor.catalog.language(named: language)?.first?.compile != nil
    #expect(second.compileCacheHit == compiled)
    #expect(second.stdout == "Hello, World!\n")
  }
}

@Suite struct PythonTests {
  @Test(
    .enabled(if: installed("python"), "needs the Python toolchain: scripts/install-toolchains python"),
    arguments: Check.allCases)
  func python(_ check: Check) throws { try verify("python", check) }
}

@Suite struct CppTests {
  @Test(
    .enabled(if: installed("cpp"), "needs the C++ toolchain: scripts/install-toolchains cpp"), arguments: Check.allCases
  )
  func cpp(_ check: Check) throws { try verify("cpp", check) }
}

@Suite struct CTests {
  @Test(
    .enabled(if: installed("c"), "needs the C toolchain: scripts/install-toolchains c"), arguments: Check.allCases
  )
  func c(_ check: Check) throws { try verify("c", check) }

  /// `cc` names C, not C++: valid C that C++ refuses (a `void *` assigned without a cast) compiles.
  @Test(.enabled(if: installed("c"), "needs the C toolchain: scripts/install-toolchains c"))
  func ccCompilesC() throws {
    let source =
      "#include <stdio.h>\n#include <stdlib.h>\nint main(void) { int *p = malloc(sizeof *p); *p = 7; printf(\"%d\\n\", *p); free(p); }\n"
    let result = try execute("cc", source)
    #expect(result.language == "c")
    #expect(result.stdout == "7\n", "\(result.compileMessages)")
    let asCpp = try execute("cpp", source)
    #expect(asCpp.compile?.status == .compileError, "C++ refuses it, so the test means something")
  }
}

@Suite struct JavaTests {
  @Test(
    .enabled(if: installed("java"), "needs the Java toolchain: scripts/install-toolchains java"),
    arguments: Check.allCases)
  func java(_ check: Check) throws { try verify("java", check) }
}

import Foundation
import Glibc
import SystemCore
import Testing

@testable import dsa_run

// How dsa-run is called: the language from the file's extension as `python hello.py` would, and
// an ordinary user told that boxes need root or a daemon.

/// A file `name` holding `text` in a fresh folder that every user may read.
private func sourceFile(_ text: String, name: String) throws -> String {
  let directory = NSTemporaryDirectory() + "dsa-run-usage-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
  try FileManager.default.createDirectory(
    atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
  let path = directory + "/" + name
  try text.write(toFile: path, atomically: true, encoding: .utf8)
  chmod(path, 0o644)
  return path
}

@Suite struct CLILanguageFromExtensionTests {
  @Test(arguments: [
    ("hello.py", "python"), ("dir.d/Main.java", "java"), ("/tmp/a.b/sort.cpp", "cpp"), ("main.kt", "kotlin"),
    ("main.go", "go"), ("main.dart", "dart"), ("app.js", "javascript"), ("sum.c", "c"),
  ])
  func theExtensionNamesTheLanguage(path: String, language: String) throws {
    #expect(try dsa_run.language(ofSourceFile: path) == language)
  }

  @Test(arguments: ["notes.txt", "Makefile", ".py", "hello.PY", "dir.py/hello"])
  func anUnknownExtensionIsAUsageErrorListingTheKnownOnes(path: String) {
    #expect {
      try dsa_run.language(ofSourceFile: path)
    } throws: { error in
      guard let usage = error as? UsageError else { return false }
      return usage.message.contains("known extensions: .c (c), .cpp (cpp), .dart (dart), .go (go), .java (java)")
        && usage.message.contains(".py (python)") && usage.message.contains("--lang LANG")
    }
  }

  @Test func theFirstWordIsAFileWhenItLooksLikeOne() {
    #expect(namesSourceFile("hello.py"))
    #expect(namesSourceFile("./hello"))
    #expect(!namesSourceFile("langauges"))
  }

  @Test func aFileRunsInTheLanguageOfItsExtension() throws {
    let path = try sourceFile("import sys\nprint(input()[::-1], sys.argv[1:])\n", name: "rev.py")
    let result = try runCLI([path, "--", "a"], stdin: Data("olleh\n".utf8))
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "hello ['a']\n")
    // Flags before the file as well.
    let json = try runCLI(["--json", path], stdin: Data("ba\n".utf8))
    #expect(json.status == 0, "\(json.stderr)")
    #expect(json.stdout.contains("\"language\":\"python\"") || json.stdout.contains("\"language\": \"python\""))
  }

  @Test func langWinsOverTheExtension() throws {
    // Python source in a .js file: --lang says what it is.
    let path = try sourceFile("print('from python', 1 // 1)\n", name: "really-python.js")
    let result = try runCLI(["--lang", "python", path])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "from python 1\n")
  }

  @Test func anUnknownExtensionWithoutLangExitsTwoAndListsTheKnownOnes() throws {
    let path = try sourceFile("print(1)\n", name: "notes.txt")
    let result = try runCLI([path])
    #expect(result.status == 2)
    #expect(result.stderr.hasPrefix("dsa-run: cannot tell the language of notes.txt from its extension"))
    #expect(result.stderr.contains(".py (python)") && result.stderr.contains("--lang LANG"), "\(result.stderr)")
    let unknownCommand = try runCLI(["langauges"])
    #expect(unknownCommand.status == 2)
    #expect(unknownCommand.stderr.contains("unknown command \"langauges\""))
  }
}

/// dsa-run as uid 65534 (`setpriv`): what an ordinary user sees.
private func runAsNobody(_ arguments: [String], environment: [String: String] = [:]) throws -> CLIResult {
  try runCLI(
    ["--reuid=65534", "--regid=65534", "--clear-groups", dsaRunBinary] + arguments, environment: environment,
    executable: "/usr/bin/setpriv")
}

// Bounded: a --watch that went on asking for root at every save would never end.
@Suite(.timeLimit(.minutes(2))) struct CLIOrdinaryUserTests {
  static let needsRoot =
    "dsa-run: running programs here needs root: dsa-run makes its boxes (namespaces, mounts, cgroups) as root. "
    + "Run it as root (sudo dsa-run ...), or send the program to a dsa-rund: --daemon"

  @Test func aRunSaysItNeedsRootOrADaemon() throws {
    let path = try sourceFile("print('hi')\n", name: "hi.py")
    for arguments in [
      [path], ["--lang", "python", path], [path, "--challenge", "insertion-sort"], [path, "--watch"],
      ["challenges", "--check", "--solutions", repositoryRoot + "/challenges/merge-sort"], ["exec", "--", "/bin/true"],
    ] {
      let result = try runAsNobody(arguments)
      #expect(result.status == 2, "\(arguments): \(result.stderr)")
      #expect(result.stderr.hasPrefix(Self.needsRoot), "\(arguments): \(result.stderr)")
      #expect(!result.stderr.contains("EACCES"), "\(arguments): \(result.stderr)")
    }
    let doctor = try runAsNobody(["doctor"])
    #expect(doctor.status == 3)
    #expect(doctor.stdout.contains("running programs here needs root"), "\(doctor.stdout)")
  }

  @Test func aDaemonRunAndTheListingsNeedNoRoot() throws {
    let path = try sourceFile("print('hi')\n", name: "hi.py")
    // No daemon listens there: the run goes to it, and says so, rather than asking for root.
    let remote = try runAsNobody(
      [path, "--daemon"], environment: ["DSA_RUN_DAEMON_SOCKET": "/nonexistent/dsa-rund.sock"])
    #expect(remote.status == 3, "\(remote.stderr)")
    #expect(remote.stderr.contains("/nonexistent/dsa-rund.sock"), "\(remote.stderr)")
    #expect(!remote.stderr.contains("needs root"), "\(remote.stderr)")
    let languages = try runAsNobody(["languages"])
    #expect(languages.status == 0, "\(languages.stderr)")
    #expect(languages.stdout.contains("python"))
  }
}

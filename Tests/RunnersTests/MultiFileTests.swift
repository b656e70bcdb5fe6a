import Foundation
import Testing

@testable import Runners

// Programs of several files, their entry points, and messages in the learner's own file names,
// with the real toolchains in warm boxes (as the daemon runs them).

func executeFiles(
  _ language: String, _ files: [(String, String)], stdin: String = "", arguments: [String] = []
) throws -> ExecuteResult {
  var request = ExecuteRequest(
    language: language, files: files.map { SourceFile(name: $0.0, contents: Data($0.1.utf8)) })
  request.stdin = Data(stdin.utf8)
  request.arguments = arguments
  return try RunnersFixture.executor.execute(request)
}

/// A comment that makes a source unique, so a test never meets another test's cached compile.
func uniqueComment() -> String { "// \(UInt64.random(in: 0...UInt64.max))\n" }

@Suite struct MultiFileTests {
  @Test(.enabled(if: installed("cpp"), "needs the C++ toolchain"))
  func cppCompilesEverySourceAndKeepsHeadersBeside() throws {
    let result = try executeFiles(
      "cpp",
      [
        ("app.cpp", "#include <cstdio>\n#include \"util.h\"\nint main() { std::printf(\"%d\\n\", twice(21)); }\n"),
        ("util.h", "int twice(int x);\n"),
        ("util.cpp", uniqueComment() + "#include \"util.h\"\nint twice(int x) { return 2 * x; }\n"),
        ("more.cc", "int unused_but_compiled() { return 1; }\n"),
      ])
    #expect(result.run?.status == .ok, "\(result.compileMessages)")
    #expect(result.stdout == "42\n")
  }

  @Test(.enabled(if: installed("cpp"), "needs the C++ toolchain"))
  func theCacheKeyCoversEveryFile() throws {
    let main =
      uniqueComment() + "#include <cstdio>\nint twice(int);\nint main() { std::printf(\"%d\\n\", twice(21)); }\n"
    let first = try executeFiles("cpp", [("app.cpp", main), ("util.cpp", "int twice(int x) { return 2 * x; }\n")])
    let second = try executeFiles("cpp", [("app.cpp", main), ("util.cpp", "int twice(int x) { return 3 * x; }\n")])
    #expect(first.stdout == "42\n", "\(first.compileMessages)")
    #expect(second.stdout == "63\n", "\(second.compileMessages)")
    #expect(!second.compileCacheHit)
  }

  @Test(.enabled(if: installed("go"), "needs the Go toolchain"))
  func goBuildsEveryFile() throws {
    let result = try executeFiles(
      "go",
      [
        ("app.go", "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(twice(21)) }\n"),
        ("util.go", uniqueComment() + "package main\n\nfunc twice(x int) int { return 2 * x }\n"),
      ])
    #expect(result.run?.status == .ok, "\(result.compileMessages)")
    #expect(result.stdout == "42\n")
  }

  @Test(.enabled(if: installed("java"), "needs the Java toolchain"))
  func javaFindsANonPublicMainInAPackage() throws {
    let result = try executeFiles(
      "java",
      [
        (
          "App.java",
          "package com.example;\n\nclass App {\n  public static void main(String[] args) {\n"
            + "    System.out.println(Util.twice(21) + \" \" + args.length);\n  }\n}\n"
        ),
        (
          "Helpers.java",
          uniqueComment()
            + "package com.example;\n\npublic class Util {\n  static int twice(int x) { return 2 * x; }\n}\n"
        ),
      ], arguments: ["a", "b"])
    #expect(result.run?.status == .ok, "\(result.compileMessages) \(result.stderr)")
    #expect(result.stdout == "42 2\n")
  }

  @Test(.enabled(if: installed("java"), "needs the Java toolchain"))
  func javaNamesEachFileAfterItsPublicType() throws {
    let result = try executeFiles(
      "java",
      [
        (
          "Solution.java",
          uniqueComment() + "public class Main {\n  public enum Color { RED }\n"
            + "  public static void main(String[] a) { System.out.println(new Point(1, 2).x() + \" \" + Color.RED); }\n}\n"
        ),
        ("Geometry.java", "public record Point(int x, int y) {}\n"),
      ])
    #expect(result.stdout == "1 RED\n", "\(result.compileMessages) \(result.stderr)")
  }

  @Test(.enabled(if: installed("java"), "needs the Java toolchain"))
  func javaPrefersTheEntryFilesMain() throws {
    let result = try executeFiles(
      "java",
      [
        (
          "Main.java",
          "public class Main {\n  public static void main(String[] args) { System.out.println(\"main\"); }\n}\n"
        ),
        (
          "Tool.java",
          uniqueComment()
            + "class Tool {\n  public static void main(String[] args) { System.out.println(\"tool\"); }\n}\n"
        ),
      ])
    #expect(result.stdout == "main\n", "\(result.compileMessages) \(result.stderr)")
  }

  @Test(.enabled(if: installed("java"), "needs the Java toolchain"))
  func javaWithoutOrWithTwoEntryPointsSaysSo() throws {
    let none = try executeFiles("java", [("Shapes.java", uniqueComment() + "class Circle {\n  double r;\n}\n")])
    #expect(none.compile?.status == .compileError)
    #expect(none.compile?.message.contains("no entry point") == true, "\(none.compile?.message ?? "")")
    #expect(none.compile?.message.contains("public static void main(String[] args)") == true)
    #expect(none.run == nil)
    let two = try executeFiles(
      "java",
      [
        (
          "Both.java",
          uniqueComment() + "class A {\n  public static void main(String[] a) {}\n}\n"
            + "class B {\n  public static void main(String[] a) {}\n}\n"
        )
      ])
    #expect(two.compile?.status == .compileError)
    #expect(
      two.compile?.message.contains("more than one entry point: A (Both.java), B (Both.java)") == true,
      "\(two.compile?.message ?? "")")
    #expect(two.run == nil)
  }

  @Test(.enabled(if: installed("cpp"), "needs the C++ toolchain"))
  func cppWithoutOrWithTwoMainsSaysSo() throws {
    let none = try executeFiles("cpp", [("lib.cpp", uniqueComment() + "int f() { return 1; }\n")])
    #expect(
      none.compile?.message == "The code did not compile because it has no entry point: no file defines int main().")
    let two = try executeFiles(
      "cpp", [("a.cpp", uniqueComment() + "int main() { return 0; }\n"), ("b.cpp", "int main() { return 1; }\n")])
    #expect(
      two.compile?.message.contains("more than one entry point: int main() is defined in more than one file") == true,
      "\(two.compile?.message ?? "")")
  }

  @Test(.enabled(if: installed("go"), "needs the Go toolchain"))
  func goWithoutOrWithTwoMainsSaysSo() throws {
    let none = try executeFiles("go", [("lib.go", uniqueComment() + "package main\n\nfunc f() {}\n")])
    #expect(
      none.compile?.message.contains("no entry point: no file declares func main() in package main") == true,
      "\(none.compile?.message ?? "")")
    let two = try executeFiles(
      "go",
      [("a.go", uniqueComment() + "package main\n\nfunc main() {}\n"), ("b.go", "package main\n\nfunc main() {}\n")])
    #expect(two.compile?.message.contains("more than one entry point") == true, "\(two.compile?.message ?? "")")
  }

  @Test(.enabled(if: installed("dart"), "needs the Dart toolchain"))
  func dartWithoutMainSaysSo() throws {
    let none = try executeFiles("dart", [("lib.dart", uniqueComment() + "int f() => 1;\n")])
    #expect(none.compile?.status == .compileError)
    #expect(
      none.compile?.message.contains("no entry point: the first file declares no top-level main()") == true,
      "\(none.compile?.message ?? "")")
  }

  @Test(.enabled(if: installed("kotlin"), "needs the Kotlin toolchain"))
  func kotlinCompilesEveryFileAndFindsAnObjectsMain() throws {
    let topLevel = try executeFiles(
      "kotlin",
      [
        ("app.kt", "fun main() {\n    println(twice(21))\n}\n"),
        ("util.kt", uniqueComment() + "fun twice(x: Int) = 2 * x\n"),
      ])
    #expect(topLevel.run?.status == .ok, "\(topLevel.compileMessages) \(topLevel.stderr)")
    #expect(topLevel.stdout == "42\n")
    let object = try executeFiles(
      "kotlin",
      [
        (
          "Main.kt",
          uniqueComment() + "object App {\n    @JvmStatic fun main(args: Array<String>) {\n"
            + "        println(\"app \" + args.joinToString(\"|\"))\n    }\n}\n"
        )
      ], arguments: ["x", "y"])
    #expect(object.run?.status == .ok, "\(object.compileMessages) \(object.stderr)")
    #expect(object.stdout == "app x|y\n")
  }
}

@Suite struct KotlinScriptTests {
  @Test(.enabled(if: installed("kotlin"), "needs the Kotlin toolchain"))
  func aKtsFileRunsAsAScriptAndNamesItself() throws {
    let result = try executeFiles(
      "kotlin",
      [
        (
          "solve it.kts",
          uniqueComment() + "val line = readLine() ?: \"none\"\nprintln(\"got \" + line + \" \" + f())\n"
            + "fun f() = 42\nval z = IntArray(0)\nprintln(z[1])\n"
        )
      ], stdin: "hi\n")
    #expect(result.stdout == "got hi 42\n", "\(result.compileMessages) \(result.stderr)")
    #expect(result.run?.status == .runtimeError)
    #expect(result.stderr.contains("at Main.<init>(solve it.kts:6)"), "\(result.stderr)")
    #expect(!result.stderr.contains("reflect"), "the launcher's frames are not the learner's: \(result.stderr)")
  }

  @Test(.enabled(if: installed("kotlin"), "needs the Kotlin toolchain"))
  func theKtsAliasRunsAnUnnamedSourceAsAScript() throws {
    let result = try execute("kts", uniqueComment() + "println(\"script \" + listOf(1, 2).sum())\n")
    #expect(result.run?.status == .ok, "\(result.compileMessages)")
    #expect(result.stdout == "script 3\n")
  }
}

@Suite struct LearnerFileNameTests {
  @Test(.enabled(if: installed("cpp"), "needs the C++ toolchain"))
  func cppNamesAFileWithASpaceAndNonASCII() throws {
    let result = try executeFiles("cpp", [("my sört.cpp", uniqueComment() + "int main() {\n  int x = \"no\";\n}\n")])
    #expect(result.compile?.status == .compileError)
    #expect(result.compileMessages.contains("my sört.cpp:3:"), "\(result.compileMessages)")
  }

  @Test(.enabled(if: installed("python"), "needs the Python toolchain"))
  func pythonTracebacksNameTheLearnersFiles() throws {
    let result = try executeFiles(
      "python", [("my prog.py", "import helper\nhelper.boom()\n"), ("helper.py", "def boom():\n    return 1 // 0\n")])
    #expect(result.run?.status == .runtimeError)
    #expect(result.stderr.contains("File \"my prog.py\", line 2"), "\(result.stderr)")
    #expect(result.stderr.contains("File \"helper.py\", line 2"), "\(result.stderr)")
    #expect(!result.stderr.contains("/box/"))
  }

  @Test(.enabled(if: installed("javascript"), "needs the Node toolchain"))
  func nodeTracebacksNameTheLearnersFiles() throws {
    let result = try executeFiles(
      "javascript",
      [
        ("app é.js", "const h = require('./helper.js');\nh.boom();\n"),
        ("helper.js", "exports.boom = () => { null.x; };\n"),
      ])
    #expect(result.run?.status == .runtimeError)
    #expect(result.stderr.hasPrefix("helper.js:1\n"), "\(result.stderr)")
    #expect(result.stderr.contains("(app é.js:2:3)"), "\(result.stderr)")
    #expect(!result.stderr.contains("/box/"))
  }

  @Test(.enabled(if: installed("java"), "needs the Java toolchain"))
  func javaNamesTheLearnersFileNotThePublicClasses() throws {
    let compileError = try executeFiles(
      "java",
      [
        (
          "Solution.java",
          uniqueComment() + "public class Sum {\n  public static void main(String[] a) {\n    int x = \"s\";\n  }\n}\n"
        )
      ])
    #expect(compileError.compileMessages.contains("Solution.java:4: error"), "\(compileError.compileMessages)")
    #expect(!compileError.compileMessages.contains("Sum.java"))
    let crash = try executeFiles(
      "java",
      [
        (
          "Solution.java",
          uniqueComment()
            + "public class Sum {\n  public static void main(String[] a) {\n    System.out.println(a[3]);\n  }\n}\n"
        )
      ])
    #expect(crash.run?.status == .runtimeError)
    #expect(crash.stderr.contains("at Sum.main(Solution.java:4)"), "\(crash.stderr)")
  }

  @Test(.enabled(if: installed("kotlin"), "needs the Kotlin toolchain"))
  func kotlinNamesAFileWithASpace() throws {
    let result = try executeFiles(
      "kotlin", [("my app.kt", uniqueComment() + "fun main() {\n    val z = IntArray(0)\n    println(z[1])\n}\n")])
    #expect(result.run?.status == .runtimeError, "\(result.compileMessages)")
    #expect(result.stderr.contains("(my app.kt:4)"), "\(result.stderr)")
  }

  @Test(.enabled(if: installed("go"), "needs the Go toolchain"))
  func goNamesTheFileWithoutDotSlash() throws {
    let compileError = try executeFiles(
      "go", [("sört.go", "package main\n\nfunc main() {\n\tx := 1\n}\n" + uniqueComment())])
    #expect(
      compileError.compileMessages.contains("\nsört.go:4:2: declared and not used: x"),
      "\(compileError.compileMessages)")
    let panic = try executeFiles(
      "go", [("sört.go", "package main\n\nfunc main() {\n\tvar p []int\n\tprintln(p[3])\n}\n" + uniqueComment())])
    #expect(panic.stderr.contains("\tsört.go:5 +"), "\(panic.stderr)")
  }

  @Test(.enabled(if: installed("dart"), "needs the Dart toolchain"))
  func dartNamesTheFileInStackFramesAndErrors() throws {
    let crash = try executeFiles(
      "dart", [("my dart.dart", "void main() {\n  var zero = 0;\n  print(1 ~/ zero);\n}\n" + uniqueComment())])
    #expect(crash.run?.status == .runtimeError)
    #expect(crash.stderr.contains("main (my dart.dart:3:"), "\(crash.stderr)")
    let compileError = try executeFiles(
      "dart", [("sört.dart", "void main() {\n  int x = 'no';\n}\n" + uniqueComment())])
    #expect(compileError.compileMessages.contains("sört.dart:2:11: Error"), "\(compileError.compileMessages)")
  }
}

@Suite struct LearnerNamesRewriteTests {
  let names = [LearnerName(box: "main.py", learner: "main.py"), LearnerName(box: "Sum.java", learner: "Solution.java")]

  @Test func onlyTheLearnersFilesAreRenamed() {
    let text = """
      File "/box/main.py", line 2
      /box/main: not a learner's file, nor is /box/main.pyc or /opt/x/main.py
      at Sum.main(Sum.java:4) and ./main.py:3 and file:///box/main.py:1:2 but not MySum.java:1
      """
    let rewritten = String(decoding: LearnerNames.rewrite(Data(text.utf8), names: names), as: UTF8.self)
    #expect(
      rewritten == """
        File "main.py", line 2
        /box/main: not a learner's file, nor is /box/main.pyc or /opt/x/main.py
        at Sum.main(Solution.java:4) and main.py:3 and main.py:1:2 but not MySum.java:1
        """)
  }

  @Test func percentEncodedFileURIsAreDecoded() {
    let names = [LearnerName(box: "my sört.dart", learner: "my sört.dart")]
    let text = "#1      main (file:///box/my%20s%C3%B6rt.dart:3:11)\n"
    #expect(
      String(decoding: LearnerNames.rewrite(Data(text.utf8), names: names), as: UTF8.self)
        == "#1      main (my sört.dart:3:11)\n")
  }

  @Test func malformedClassFilesAreNotEntryPoints() {
    #expect(EntryPoint.mainClass(in: Data()) == nil)
    #expect(EntryPoint.mainClass(in: Data([0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 61, 0xFF, 0xFF, 1])) == nil)
    #expect(throws: EntryPointProblem.none) {
      try EntryPoint.choose(among: [("A.class", Data([1, 2]))], entrySource: "A.java")
    }
  }
}

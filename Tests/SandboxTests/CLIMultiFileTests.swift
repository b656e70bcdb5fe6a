import Foundation
import Testing

/// `dsa-run --lang L FILE FILE...`: every source file is compiled, and messages use the files' names.
@Suite struct CLIMultiFileTests {
  private func directory(_ files: [(String, String)]) throws -> String {
    let directory = NSTemporaryDirectory() + "dsa-run-cli-multi-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    for (name, text) in files { try text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8) }
    return directory
  }

  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/bin/g++-12"), "needs g++ 12"))
  func cppProgramOfThreeFilesLinks() throws {
    let nonce = "// \(UInt64.random(in: 0...UInt64.max))\n"
    let root = try directory([
      (
        "app.cpp", nonce + "#include <cstdio>\n#include \"util.h\"\nint main() { std::printf(\"%d\\n\", twice(21)); }\n"
      ),
      ("util.h", "int twice(int x);\n"),
      ("util.cpp", "#include \"util.h\"\nint twice(int x) { return 2 * x; }\n"),
    ])
    let result = try runCLI(["--lang", "cpp", root + "/app.cpp", root + "/util.h", root + "/util.cpp"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "42\n")
  }

  @Test func pythonTracebackNamesAFileWithASpace() throws {
    let root = try directory([
      ("my prog.py", "import helper\nhelper.boom()\n"), ("helper.py", "def boom():\n    1 // 0\n"),
    ])
    let result = try runCLI(["--lang", "python", root + "/my prog.py", root + "/helper.py"])
    #expect(result.status == 1)
    #expect(result.stderr.contains("File \"my prog.py\", line 2"), "\(result.stderr)")
    #expect(!result.stderr.contains("/box/"))
  }
}

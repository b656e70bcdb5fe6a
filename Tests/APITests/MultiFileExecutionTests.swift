import Foundation
import HTTP
import Runners
import Testing

@testable import API

/// Several files through /v1/execute: every source is compiled, and messages carry the names the
/// request gave its files.
@Suite struct MultiFileExecutionTests {
  private func executeBody(_ language: String, _ files: [(String, String)]) throws -> HTTPRequest {
    let body: [String: Any] = ["language": language, "files": files.map { ["name": $0.0, "content": $0.1] }]
    return executeRequest(String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self))
  }

  @Test(.enabled(if: APIFixture.isInstalled("cpp")))
  func cppFilesAreAllCompiledAndNamedAsTheRequestNamedThem() throws {
    let router = makeRouter()
    let nonce = "// \(UInt64.random(in: 0...UInt64.max))\n"
    let linked = router.handle(
      try executeBody(
        "cpp",
        [
          (
            "app.cpp",
            "#include <cstdio>\n#include \"util.h\"\nint main() { std::printf(\"%d\\n\", twice(21)); }\n" + nonce
          ),
          ("util.h", "int twice(int x);\n"),
          ("util.cpp", "#include \"util.h\"\nint twice(int x) { return 2 * x; }\n"),
        ]))
    #expect(linked.status == .ok, "\(linked.text)")
    let run = try #require(linked.object["run"] as? [String: Any], "\(linked.text)")
    #expect(run["stdout"] as? String == "42\n")
    let failed = router.handle(
      try executeBody("cpp", [("mön sort.cpp", nonce + "int main() {\n  int x = \"no\";\n}\n")]))
    let compile = try #require(failed.object["compile"] as? [String: Any], "\(failed.text)")
    #expect((compile["stderr"] as? String)?.contains("mön sort.cpp:3:11: error") == true, "\(compile)")
  }

  @Test(.enabled(if: APIFixture.isInstalled("python")))
  func pythonTracebacksNameTheRequestsFiles() throws {
    let router = makeRouter()
    let response = router.handle(
      try executeBody(
        "python",
        [("solution.py", "import helper\nhelper.boom()\n"), ("helper.py", "def boom():\n    return 1 // 0\n")]))
    let run = try #require(response.object["run"] as? [String: Any], "\(response.text)")
    let stderr = run["stderr"] as? String ?? ""
    #expect(stderr.contains("File \"solution.py\", line 2"), "\(stderr)")
    #expect(stderr.contains("File \"helper.py\", line 2"), "\(stderr)")
    #expect(!stderr.contains("/box/"))
  }
}

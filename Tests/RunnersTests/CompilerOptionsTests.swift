import Foundation
import Testing

@testable import Runners

/// C and C++ standards chosen by `version`, and compiler options from an allow-list: an option can
/// read or write files, load code into the compiler or reach the linker, so only the harmless ones
/// pass, and the compile cache keys on them.
@Suite struct CompilerOptionsTests {
  static let cpp = RunnersFixture.executor.catalog.language(named: "cpp")!.first!
  static let c = RunnersFixture.executor.catalog.language(named: "c")!.first!
  static let python = RunnersFixture.executor.catalog.language(named: "python")!.first!

  @Test(arguments: [
    "-O0", "-O3", "-Os", "-g", "-Wall", "-Wextra", "-Werror", "-Wno-unused-variable", "-Wformat=2", "-w",
    "-pedantic", "-DDEBUG", "-DLIMIT=100", "-D_GNU_SOURCE", "-std=c++20", "-std=gnu++14",
    "-fsanitize=undefined",
  ])
  func harmlessOptionsPass(option: String) {
    #expect(CompilerOptions.problem([option], runner: Self.cpp) == nil)
  }

  @Test(arguments: [
    "-o/tmp/x", "-o", "@/etc/passwd", "-Wl,-rpath,/tmp", "-Wa,-a=/box/x", "-Wp,-MD,/tmp/d", "-fplugin=/tmp/p.so",
    "-B/tmp", "-specs=/tmp/s", "-I/etc", "-include/etc/shadow", "-DX=$(id)", "-DX=`id`", "-D1X", "-fsanitize=thread",
    "-fsanitize=address",
    "-std=c17", "-std=c++99", "--help", "-save-temps", "-wrapper", "-x", "main.cpp", "-L/tmp", "-lfoo",
  ])
  func everythingElseIsRefusedByName(option: String) {
    let problem = CompilerOptions.problem(["-O2", option], runner: Self.cpp)
    #expect(problem?.contains("\"\(option)\"") == true, "\(problem ?? "accepted")")
  }

  @Test func eachLanguageTakesItsOwnStandardsOnly() {
    #expect(CompilerOptions.problem(["-std=c11"], runner: Self.c) == nil)
    #expect(CompilerOptions.problem(["-std=gnu2x"], runner: Self.c) == nil)
    #expect(CompilerOptions.problem(["-std=c++20"], runner: Self.c) != nil)
    #expect(CompilerOptions.problem(["-O2"], runner: Self.python) == "Python takes no compiler options")
    #expect(CompilerOptions.problem([], runner: Self.python) == nil)
    #expect(CompilerOptions.words("  -O2\t-Wall  ") == ["-O2", "-Wall"])
  }

  /// C++20 code (a designated initializer and `<=>`) does not compile as the default C++17; as
  /// version "c++20" it does, in a compile cache entry of its own.
  @Test func aStandardIsChosenByVersion() throws {
    let source = """
      #include <compare>
      #include <cstdio>
      struct Point { int x, y; auto operator<=>(const Point&) const = default; };
      int main() { Point a{.x = 1, .y = 2}, b{.x = 1, .y = 3}; std::printf("%d\\n", a < b); }
      """
    let byDefault = try execute("cpp", source)
    #expect(byDefault.compile?.status == .compileError)
    let twenty = try execute("cpp", source) { $0.version = "c++20" }
    #expect(twenty.stdout == "1\n", "\(twenty.compileMessages)")
    #expect(!twenty.compileCacheHit)
    let stdcVersion = "#include <stdio.h>\nint main(void) { printf(\"%ld\\n\", __STDC_VERSION__); }\n"
    #expect(try execute("c", stdcVersion).stdout == "201710\n")
    #expect(try execute("c", stdcVersion) { $0.version = "c11" }.stdout == "201112\n")
    let unknown = #expect(throws: ExecuteError.self) { _ = try execute("cpp", source) { $0.version = "c++99" } }
    #expect("\(unknown.map { "\($0)" } ?? "")".contains("c++20"))
  }

  @Test func optionsReachTheCompilerAndItsCacheKey() throws {
    let source = "#include <stdio.h>\nint main(void) { printf(\"%d\\n\", LIMIT); }\n"
    var request = ExecuteRequest(language: "c", files: [SourceFile(name: "", contents: Data(source.utf8))])
    request.runner = Self.c.withCompilerOptions(["-DLIMIT=7"])
    let seven = try RunnersFixture.executor.execute(request)
    #expect(seven.stdout == "7\n", "\(seven.compileMessages)")
    request.runner = Self.c.withCompilerOptions(["-DLIMIT=8"])
    let eight = try RunnersFixture.executor.execute(request)
    #expect(eight.stdout == "8\n" && !eight.compileCacheHit)
  }

  /// The undefined-behaviour sanitizer reports in the box; AddressSanitizer cannot start there (it
  /// sets rlimits, which the seccomp policy refuses), so it is not offered.
  @Test func theUndefinedBehaviourSanitizerWorksInTheBox() throws {
    let source =
      "#include <limits.h>\n#include <stdio.h>\nint main(void) { volatile int x = INT_MAX; x += 1; printf(\"%d\\n\", x); }\n"
    var request = ExecuteRequest(language: "c", files: [SourceFile(name: "", contents: Data(source.utf8))])
    request.runner = Self.c.withCompilerOptions(["-g", "-fsanitize=undefined"])
    let result = try RunnersFixture.executor.execute(request)
    #expect(result.stderr.contains("signed integer overflow"), "\(result.compileMessages) \(result.stderr.prefix(600))")
    #expect(CompilerOptions.problem(["-fsanitize=address"], runner: Self.c) != nil)
  }
}

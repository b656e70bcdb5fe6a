import Foundation

/// What a caller may add to a C or C++ compile (Judge0's `compiler_options`; a standard chosen by
/// `version`): an allow-list, because a compiler option can read or write any file the compile box
/// holds (`-o`, `@file`, `-specs=`), load code into the compiler (`-fplugin=`, `-B`) or pass
/// anything on to the assembler and linker (`-Wa,`, `-Wl,`). Everything else is refused by name.
///
/// An option changes the compile command, so the compile cache keys on it like on the rest of the
/// command: a program compiled with `-O0` is never served to a request for `-O2`.
public enum CompilerOptions {
  /// gcc's standards by the names `version` takes ("c++20"); `-std=` takes them and their `gnu`
  /// dialects.
  public static let standards = [
    "c89", "c90", "c99", "c11", "c17", "c18", "c2x", "c++98", "c++03", "c++11", "c++14", "c++17", "c++20", "c++2b",
    "c++23",
  ]
  /// The sanitizers that work in a box. AddressSanitizer and LeakSanitizer stop at start there:
  /// they set rlimits, which the seccomp policy refuses.
  public static let sanitizers = ["undefined"]
  /// The most options one request may add.
  public static let maximumCount = 32

  /// How a runner's compile command names standard `name`: gcc's GNU dialect, as the runners'
  /// defaults do (`-std=gnu++17`).
  public static func standardFlag(_ name: String) -> String {
    "-std=gnu" + name.dropFirst()
  }

  /// Judge0's option string as words: it is pasted into a shell command there, so words are split
  /// at white space; a word with a quote or another shell character is refused by the allow-list.
  public static func words(_ text: String) -> [String] {
    text.split(whereSeparator: \.isWhitespace).map(String.init)
  }

  /// nil when `runner` takes every one of `options`; else the sentence naming the first it does not.
  public static func problem(_ options: [String], runner: Runner) -> String? {
    guard let family = runner.standards.first.map({ $0.hasPrefix("c++") ? "c++" : "c" }) else {
      return options.isEmpty ? nil : "\(runner.displayName) takes no compiler options"
    }
    if options.count > maximumCount { return "at most \(maximumCount) compiler options are accepted" }
    for option in options where !isAllowed(option, family: family) {
      return "the compiler option \"\(option)\" is not allowed here; allowed: -std=, -O0 to -O3, -Os, -Og, "
        + "-W... warnings, -w, -pedantic, -DNAME[=VALUE], -g, -fsanitize=\(sanitizers.joined(separator: "|"))"
    }
    return nil
  }

  static func isAllowed(_ option: String, family: String) -> Bool {
    if [
      "-O", "-O0", "-O1", "-O2", "-O3", "-Os", "-Og", "-g", "-g0", "-g1", "-g2", "-g3", "-w", "-pedantic",
      "-pedantic-errors",
    ].contains(option) {
      return true
    }
    if option.hasPrefix("-std=") {
      let value = option.dropFirst("-std=".count)
      let name = value.hasPrefix("gnu") ? "c" + value.dropFirst(3) : String(value)
      return standards.contains(name) && name.hasPrefix("c++") == (family == "c++")
    }
    if option.hasPrefix("-fsanitize=") {
      return option.dropFirst("-fsanitize=".count).split(separator: ",", omittingEmptySubsequences: false)
        .allSatisfy { sanitizers.contains(String($0)) }
    }
    // Warnings only: no comma, so none of -Wa, -Wl, -Wp (options passed on to other programs).
    if option.hasPrefix("-W") {
      return option.count > 2
        && option.dropFirst(2).allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-=+_".contains($0)) }
    }
    if option.hasPrefix("-D") {
      let definition = option.dropFirst(2)
      let name = definition.prefix { $0 != "=" }
      guard let first = name.first, first.isASCII, first.isLetter || first == "_",
        name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
      else { return false }
      // A value as one plain word: Judge0's shell would have read quotes and escapes in it.
      return definition.dropFirst(name.count).allSatisfy {
        $0.isASCII && !$0.isWhitespace && !"'\"\\$`;&|<>(){}*?!#~".contains($0)
      }
    }
    return false
  }
}

extension Runner {
  /// This runner with `options` in its compile command, after its own and before the sources, so
  /// a `-std=` or `-O` given wins over the runner's.
  public func withCompilerOptions(_ options: [String]) -> Runner {
    guard !options.isEmpty, var compile, let sources = compile.argv.firstIndex(of: "{sources}") else { return self }
    compile.argv.insert(contentsOf: options, at: sources)
    var runner = self
    runner.compile = compile
    return runner
  }

  /// This runner compiling as standard `name` ("c++20"); nil when it does not offer that one.
  public func selectingStandard(_ name: String) -> Runner? {
    guard let defaultStandard = standards.first, standards.contains(name), var compile,
      let index = compile.argv.firstIndex(of: CompilerOptions.standardFlag(defaultStandard))
    else { return nil }
    compile.argv[index] = CompilerOptions.standardFlag(name)
    var runner = self
    runner.compile = compile
    return runner
  }
}

import Foundation
import Testing

// docs/architecture.md's module table says what each module may import. This test holds it to the
// tree: for every target of Package.swift but the tests, the table's "imports" column, the
// `import` lines of the target's Swift files and its dependencies in Package.swift must name the
// same modules of this package (Foundation, Glibc and the like are not compared). It reads files
// only: no root, no kernel, no build of anything.

/// The repository's root: three levels above this file (Tests/ArchitectureTests/<file>).
private let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()

private func read(_ relativePath: String) throws -> String {
  try String(contentsOf: repositoryRoot.appendingPathComponent(relativePath), encoding: .utf8)
}

/// One target of Package.swift.
struct PackageTarget: Equatable {
  var name: String
  var kind: String
  var path: String
  var dependencies: Set<String>
  var isTest: Bool { kind == "testTarget" }
}

/// The targets of a Package.swift, read from its text: each `.target(`, `.executableTarget(`,
/// `.testTarget(` and `.systemLibrary(` call with its `name:`, `dependencies:` strings and `path:`.
func packageTargets(_ manifest: String) -> [PackageTarget] {
  let text = Array(manifest)
  var targets: [PackageTarget] = []
  let kinds = ["target", "executableTarget", "testTarget", "systemLibrary"]
  var index = 0
  while index < text.count {
    guard text[index] == "." else {
      index += 1
      continue
    }
    let rest = String(text[(index + 1)..<min(text.count, index + 40)])
    guard let kind = kinds.first(where: { rest.hasPrefix($0 + "(") }) else {
      index += 1
      continue
    }
    // The call's arguments: up to the parenthesis that closes it.
    var depth = 0
    var end = index + 1 + kind.count
    repeat {
      if text[end] == "(" { depth += 1 }
      if text[end] == ")" { depth -= 1 }
      end += 1
    } while depth > 0 && end < text.count
    let arguments = String(text[(index + 1 + kind.count)..<end])
    func string(after label: String) -> String? {
      guard let range = arguments.range(of: #"\#(label):\s*"([^"]*)""#, options: .regularExpression) else { return nil }
      return String(arguments[range]).components(separatedBy: "\"")[1]
    }
    if let name = string(after: "name") {
      var dependencies: Set<String> = []
      if let list = arguments.range(of: #"dependencies:\s*\[[^\]]*\]"#, options: .regularExpression) {
        let parts = String(arguments[list]).components(separatedBy: "\"")
        dependencies = Set(stride(from: 1, to: parts.count, by: 2).map { parts[$0] })
      }
      let defaultPath = (kind == "testTarget" ? "Tests/" : "Sources/") + name
      targets.append(
        PackageTarget(name: name, kind: kind, path: string(after: "path") ?? defaultPath, dependencies: dependencies))
    }
    index = end
  }
  return targets
}

/// Every module a Swift file imports (`import X`, `@testable import X`, `internal import X`, ...).
func importedModules(_ source: String) -> Set<String> {
  var modules: Set<String> = []
  for line in source.split(separator: "\n") {
    let words = line.split(separator: " ").map(String.init)
    guard let position = words.firstIndex(of: "import"), position + 1 < words.count else { continue }
    let before = words[..<position]
    let modifiers: Set<String> = [
      "@testable", "@_exported", "@preconcurrency", "@_implementationOnly", "public", "package", "internal", "private",
      "fileprivate",
    ]
    guard before.allSatisfy({ modifiers.contains($0) }) else { continue }
    modules.insert(words[position + 1])
  }
  return modules
}

/// The module table's rows: module name -> the words of its imports column, text in parentheses
/// left out (it explains, e.g. "(both `internal import`, so no C type leaks into the public API)").
func moduleTable(_ document: String) throws -> [String: Set<String>] {
  let lines = document.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  guard let section = lines.firstIndex(of: "## Modules") else { throw TableError("no \"## Modules\" section") }
  func cells(_ line: String) -> [String] {
    // `\|` inside a cell is a literal bar, not a column.
    let parts = line.replacingOccurrences(of: #"\|"#, with: "\u{0}").split(
      separator: "|", omittingEmptySubsequences: false)
    return parts.dropFirst().dropLast().map {
      $0.replacingOccurrences(of: "\u{0}", with: "|").trimmingCharacters(in: .whitespaces)
    }
  }
  guard let header = lines[section...].firstIndex(where: { $0.hasPrefix("|") }),
    let column = cells(lines[header]).firstIndex(of: "imports")
  else { throw TableError("the \"## Modules\" section has no table with an \"imports\" column") }
  var rows: [String: Set<String>] = [:]
  for line in lines[(header + 2)...] {
    guard line.hasPrefix("|") else { break }
    let row = cells(line)
    guard row.count > column,
      let name = row[0].split(separator: "`", omittingEmptySubsequences: false).dropFirst().first.map(String.init)
    else {
      throw TableError("a row without a `module` name or an imports cell: \(line.prefix(60))")
    }
    var imports = ""
    var depth = 0
    for character in row[column] {
      if character == "(" { depth += 1 }
      if depth == 0 { imports.append(character) }
      if character == ")" { depth = max(0, depth - 1) }
    }
    let words = imports.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
    rows[name] = Set(words.map(String.init))
  }
  return rows
}

struct TableError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// The Swift files below `directory`, recursively.
private func swiftFiles(in directory: String) -> [String] {
  let root = repositoryRoot.appendingPathComponent(directory).path
  guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
  return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.map { root + "/" + $0 }
}

@Suite struct ModuleTableTests {
  @Test func theModuleTableMatchesImportsAndPackageDependencies() throws {
    let targets = packageTargets(try read("Package.swift")).filter { !$0.isTest }
    #expect(targets.count >= 10, "Package.swift was not read: only \(targets.map(\.name))")
    let ours = Set(packageTargets(try read("Package.swift")).map(\.name))
    let table = try moduleTable(try read("docs/architecture.md"))
    var problems: [String] = []
    func list(_ names: Set<String>) -> String { names.isEmpty ? "nothing" : names.sorted().joined(separator: ", ") }
    for target in targets.sorted(by: { $0.name < $1.name }) {
      guard let documented = table[target.name].map({ $0.intersection(ours) }) else {
        problems.append("\(target.name): no row in docs/architecture.md's module table")
        continue
      }
      var imported: Set<String> = []
      for file in swiftFiles(in: target.path) {
        imported.formUnion(importedModules(try String(contentsOfFile: file, encoding: .utf8)))
      }
      imported.formIntersection(ours)
      let dependencies = target.dependencies.intersection(ours)
      if documented != imported || documented != dependencies {
        var lines = ["\(target.name):"]
        if !imported.subtracting(documented).isEmpty {
          lines.append("  imported in \(target.path) but not in the doc: \(list(imported.subtracting(documented)))")
        }
        if !documented.subtracting(imported).isEmpty {
          lines.append(
            "  in the doc but imported by no file of \(target.path): \(list(documented.subtracting(imported)))")
        }
        if dependencies != imported {
          lines.append("  Package.swift depends on \(list(dependencies)); the files import \(list(imported))")
        }
        problems.append(lines.joined(separator: "\n"))
      }
    }
    for name in Set(table.keys).subtracting(targets.map(\.name)).sorted() {
      problems.append("\(name): a row in docs/architecture.md's module table, but no such target in Package.swift")
    }
    #expect(
      problems.isEmpty, Comment(rawValue: "docs/architecture.md has drifted:\n" + problems.joined(separator: "\n")))
  }

  // The readers themselves, on small inputs, so a reader that sees nothing cannot pass the test above.

  @Test func packageReaderFindsNamesDependenciesAndPaths() {
    let manifest = #"""
      targets: [
        .systemLibrary(name: "CLib", pkgConfig: "lib"),
        .target(name: "Core", dependencies: ["CLib"], swiftSettings: strict),
        .executableTarget(
          name: "tool",
          dependencies: ["Core", .product(name: "X", package: "y")],
          path: "Benchmarks/Tool"
        ),
        .testTarget(name: "CoreTests", dependencies: ["Core"]),
      ]
      """#
    #expect(
      packageTargets(manifest) == [
        PackageTarget(name: "CLib", kind: "systemLibrary", path: "Sources/CLib", dependencies: []),
        PackageTarget(name: "Core", kind: "target", path: "Sources/Core", dependencies: ["CLib"]),
        PackageTarget(
          name: "tool", kind: "executableTarget", path: "Benchmarks/Tool", dependencies: ["Core", "X", "y"]),
        PackageTarget(name: "CoreTests", kind: "testTarget", path: "Tests/CoreTests", dependencies: ["Core"]),
      ])
  }

  @Test func importReaderTakesEveryFormAndNothingElse() {
    let source = """
      import Foundation
      internal import CSandbox
      @testable import Runners
      public import SystemCore
      // import Commented
      let text = "import Quoted"
      """
    #expect(importedModules(source) == ["Foundation", "CSandbox", "Runners", "SystemCore"])
  }

  @Test func tableReaderLeavesParenthesesOutAndKeepsEscapedBars() throws {
    let document = """
      ## Modules

      | module | owns | imports |
      |---|---|---|
      | `Sandbox` | boxes: `a \\| b` | `CSandbox` (so no C type leaks into the public API), Foundation |
      | `dsa-run` (CLI) | the command line | `API`, `Runners` |

      after
      """
    let table = try moduleTable(document)
    #expect(table == ["Sandbox": ["CSandbox", "Foundation"], "dsa-run": ["API", "Runners"]])
  }
}

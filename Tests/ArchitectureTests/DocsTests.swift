import Foundation
import Testing

// The docs render as written: Markdown renderers (marked on the page, GitHub) read a table until its
// first blank line, so a sentence right under a table becomes a row of it, a row after a sentence is
// a stray line, and an unescaped `|` (in code spans too) splits a cell. And they stand on their own:
// a link or path leads to a file of this repository, never to the team's notes beside it.

private let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()

/// The Markdown a reader or an install gets: the README, docs/, deploy/ and the benchmarks' README.
private func documentationFiles() throws -> [String] {
  let docs = try FileManager.default.contentsOfDirectory(atPath: repositoryRoot.appendingPathComponent("docs").path)
    .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
  return ["README.md", "deploy/README.md", "Benchmarks/README.md"] + docs
}

private func text(of relativePath: String) throws -> String {
  try String(contentsOf: repositoryRoot.appendingPathComponent(relativePath), encoding: .utf8)
}

/// A table row's cells: split at every `|` not escaped with a backslash, the outer pipes dropped.
func markdownCells(_ row: Substring) -> Int {
  var line = row.trimmingCharacters(in: .whitespaces)
  if line.hasPrefix("|") { line.removeFirst() }
  if line.hasSuffix("|") && !line.hasSuffix("\\|") { line.removeLast() }
  var cells = 1
  var escaped = false
  for character in line {
    if character == "|" && !escaped { cells += 1 }
    escaped = character == "\\" && !escaped
  }
  return cells
}

/// What breaks the tables of one Markdown text, as `LINE: problem` (1-based lines); empty when none.
func markdownTableProblems(_ markdown: String) -> [String] {
  let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
  func isRow(_ line: Substring) -> Bool { line.drop { $0 == " " }.hasPrefix("|") }
  func isDelimiter(_ line: Substring) -> Bool {
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    return trimmed.hasPrefix("|") && trimmed.contains("-") && trimmed.allSatisfy { "|-: ".contains($0) }
  }
  var problems: [String] = []
  var inFence = false
  var index = 0
  while index < lines.count {
    let line = lines[index]
    if line.drop(while: { $0 == " " }).hasPrefix("```") { inFence.toggle() }
    if inFence {
      index += 1
      continue
    }
    if isRow(line) && index + 1 < lines.count && isDelimiter(lines[index + 1]) {
      let columns = markdownCells(line)
      var row = index + 2
      while row < lines.count, !lines[row].trimmingCharacters(in: .whitespaces).isEmpty {
        if !isRow(lines[row]) {
          problems.append("\(row + 1): text right under a table is read as one of its rows; leave a blank line")
        } else if markdownCells(lines[row]) != columns {
          problems.append(
            "\(row + 1): \(markdownCells(lines[row])) cells where the header has \(columns) (escape a | as \\|)")
        }
        row += 1
      }
      index = row
      continue
    }
    if isRow(line) {
      problems.append("\(index + 1): a table row outside any table (is a sentence splitting its table?)")
    }
    index += 1
  }
  return problems
}

@Suite struct DocsTests {
  @Test func theCheckerSeesWhatBreaksATable() {
    let broken = """
      | a | b |
      |---|---|
      | `x | y` | 1 |
      A sentence right under it.

      A paragraph, then rows that have lost their header.
      | c | d |

      | fine | too |
      |---|---|
      | `x \\| y` | 2 |
      """
    #expect(
      markdownTableProblems(broken) == [
        "3: 3 cells where the header has 2 (escape a | as \\|)",
        "4: text right under a table is read as one of its rows; leave a blank line",
        "7: a table row outside any table (is a sentence splitting its table?)",
      ])
  }

  @Test func everyTableHoldsTogether() throws {
    for file in try documentationFiles() {
      let problems = markdownTableProblems(try text(of: file))
      #expect(problems.isEmpty, "\(file): \(problems.joined(separator: "; "))")
    }
  }

  @Test func linksLeadToFilesOfThisRepository() throws {
    let link = /\]\(([^)#\s]+)(#[^)]*)?\)/
    for file in try documentationFiles() {
      let markdown = try text(of: file)
      #expect(!markdown.contains("../shared"), "\(file) names the team's notes outside the repository")
      for match in markdown.matches(of: link) {
        let target = String(match.output.1)
        guard !target.contains("://"), !target.hasPrefix("mailto:") else { continue }
        let folder = repositoryRoot.appendingPathComponent(file).deletingLastPathComponent()
        let resolved = folder.appendingPathComponent(target).standardizedFileURL.path
        #expect(resolved.hasPrefix(repositoryRoot.standardizedFileURL.path + "/"), "\(file): \(target) leaves it")
        #expect(FileManager.default.fileExists(atPath: resolved), "\(file): \(target) does not exist")
      }
    }
  }

}

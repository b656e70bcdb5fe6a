import Foundation
import Grading
import Runners
import Sandbox
import SystemCore
import Wire

/// One thing wrong with a challenge, located by its JSON field ("tests[2].stdin") or file.
public struct ChallengeProblem: Sendable, Hashable, CustomStringConvertible {
  /// The challenge's id.
  public var challenge: String
  /// Where: a JSON field path (`tests[2].stdin`, 0-based), a file (`starter/`), or "" for the whole.
  public var field: String
  public var message: String

  public init(challenge: String, field: String, message: String) {
    self.challenge = challenge
    self.field = field
    self.message = message
  }

  /// `challenge insertion-sort: tests[2].stdin: tests/x.in: no such file`
  public var description: String {
    field.isEmpty ? "challenge \(challenge): \(message)" : "challenge \(challenge): \(field): \(message)"
  }
}

/// A challenge that breaks the rules: every problem found, so one `--check` shows them all.
public struct ChallengeLoadError: Error, Sendable, CustomStringConvertible {
  public var problems: [ChallengeProblem]

  public init(problems: [ChallengeProblem]) { self.problems = problems }

  public var description: String { problems.map(\.description).joined(separator: "\n") }
}

/// Loads and validates challenges (docs/challenges.md): from a directory, or inline from JSON whose
/// file fields hold contents. Validation is strict and complete: unknown keys, bad names, missing
/// or oversized files, paths that leave the directory or pass through a link, checker options
/// (`Checkers.make`), recorder inputs and expected steps are all checked here, so a challenge that
/// loads can be graded without the challenge itself failing (a custom checker program can still
/// fail at grading time; that is `internal_error`).
public enum ChallengeLoader {
  public static let maximumDescriptionBytes = 64 << 10
  public static let maximumStatementBytes = 64 << 10
  public static let maximumTestFileBytes = 8 << 20
  /// All of a challenge's test files together.
  public static let maximumTotalTestBytes = 32 << 20
  public static let maximumSourceBytes = Executor.maximumSourceBytes
  public static let maximumTests = 100
  public static let maximumPoints = 1_000.0

  /// The top-level keys of challenge.json.
  public static let keys = [
    "title", "statement", "topic", "tags", "limits", "checker", "output_checker", "recorder", "tests", "wrong_solution",
    "growth", "function", "compare", "reference", "interactor",
  ]

  /// Whether `id` is a valid challenge id: lowercase letters, digits and `-`, 1 to 64 characters.
  public static func isValidID(_ id: String) -> Bool {
    (1...64).contains(id.utf8.count)
      && id.utf8.allSatisfy {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (48...57).contains($0) || $0 == 45
      }
  }

  /// Loads the challenge in `directory`; its id is the directory's name.
  ///
  /// `recording`: the steps recorded from a `reference` are not read (they are about to be recorded
  /// again, `dsa-run challenges --check --record`); its tests are listed in `reference.recordedTests`.
  public static func load(directory: String, recording: Bool = false) -> Result<Challenge, ChallengeLoadError> {
    let id = URL(fileURLWithPath: directory).standardizedFileURL.lastPathComponent
    do {
      return load(try ChallengeDirectory(path: directory), id: id, recording: recording)
    } catch {
      return .failure(ChallengeLoadError(problems: [ChallengeProblem(challenge: id, field: "", message: "\(error)")]))
    }
  }

  /// Loads the challenge `id` under a `challenges/` root, as the catalog would (the entry may not be a
  /// link). `.failure` with one problem "no such file" when there is no such challenge.
  public static func load(id: String, root: String) -> Result<Challenge, ChallengeLoadError> {
    guard isValidID(id) else {
      let problem = ChallengeProblem(
        challenge: id, field: "",
        message: "not a valid challenge id (lowercase letters, digits and -, 1 to 64 characters)")
      return .failure(ChallengeLoadError(problems: [problem]))
    }
    do {
      return load(try ChallengeDirectory(entry: id, of: try ChallengeDirectory(path: root)), id: id)
    } catch {
      return .failure(ChallengeLoadError(problems: [ChallengeProblem(challenge: id, field: "", message: "\(error)")]))
    }
  }

  /// Loads an already opened challenge directory (the catalog opens entries without following links).
  /// `deferringFilesUnder`: the root the directory is the entry `id` of, when the function tests'
  /// file values are to be let go after they are checked (`DeferredTestFiles`).
  static func load(
    _ directory: ChallengeDirectory, id: String, recording: Bool = false, deferringFilesUnder root: String? = nil
  ) -> Result<Challenge, ChallengeLoadError> {
    var parser = ChallengeParser(id: id, directory: directory)
    parser.recording = recording
    parser.deferringFilesUnder = root
    if !isValidID(id) {
      parser.problem(
        "", "the directory name is not a valid challenge id (lowercase letters, digits and -, 1 to 64 characters)")
    }
    let description: Data
    do {
      description = try directory.read("challenge.json", limit: maximumDescriptionBytes)
    } catch {
      parser.problem("", "\(error)")
      return .failure(ChallengeLoadError(problems: parser.problems))
    }
    return parser.parse(description)
  }

  /// Decodes an inline challenge (`POST /v1/grade`): the keys of challenge.json, but `statement`,
  /// the tests' `stdin`, `expected_stdout` and `expected_steps`, and a program checker's `source`
  /// hold contents instead of paths. Inline challenges have no starters or solutions.
  public static func decodeInline(_ json: Data, id: String = "inline") -> Result<Challenge, ChallengeLoadError> {
    var parser = ChallengeParser(id: id, directory: nil)
    guard json.count <= maximumTotalTestBytes + maximumDescriptionBytes else {
      parser.problem("", "the challenge is larger than \(ChallengeDirectory.size(maximumTotalTestBytes)) of JSON")
      return .failure(ChallengeLoadError(problems: parser.problems))
    }
    return parser.parse(json)
  }

  /// Decodes an inline challenge given as an already decoded JSON object.
  public static func decodeInline(_ object: JSONValue, id: String = "inline") -> Result<Challenge, ChallengeLoadError> {
    var parser = ChallengeParser(id: id, directory: nil)
    return parser.parse(object)
  }
}

/// Walks challenge.json, collecting every problem.
private struct ChallengeParser {
  /// The directory's name, or an inline challenge's own `"id"` once read (`inline` without one).
  var id: String
  /// nil for an inline challenge, whose file fields hold contents.
  let directory: ChallengeDirectory?
  /// The one strict reader (`Wire.StrictReader`): it collects every problem with its path, and the
  /// growth section reports into it too.
  let reader = StrictReader()
  /// Every problem so far, as the challenge's.
  var problems: [ChallengeProblem] {
    reader.problems.map { ChallengeProblem(challenge: id, field: $0.path, message: $0.message) }
  }
  private var testBytes = 0
  /// Step fields some expected step of some test has, and where those steps came from.
  private var stepFieldsSeen: Set<String> = []
  private var stepSources: Set<String> = []
  /// Whether the reference's recorded steps are skipped (`ChallengeLoader.load(directory:recording:)`).
  var recording = false
  /// The catalogue's root when the function tests' file values are let go once checked.
  var deferringFilesUnder: String?
  /// The `reference` section, read before the tests, and what `expected/stamp.json` says.
  private var reference: ChallengeReference?
  private var stamp: RecordedStepsStamp?

  init(id: String, directory: ChallengeDirectory?) {
    self.id = id
    self.directory = directory
  }

  func problem(_ field: String, _ message: String) { reader.report(field, message) }

  mutating func parse(_ json: Data) -> Result<Challenge, ChallengeLoadError> {
    // The reader also refuses a key given twice, which a decoder would read as one of the two.
    guard let value = reader.parse(json) else { return .failure(ChallengeLoadError(problems: problems)) }
    return parse(value)
  }

  mutating func parse(_ value: JSONValue) -> Result<Challenge, ChallengeLoadError> {
    // A catalog challenge is named by its directory; an inline one may name itself (its caller's id,
    // echoed in the grade), so `id` is a key of inline challenges only.
    let allowed = directory == nil ? ChallengeLoader.keys + ["id"] : ChallengeLoader.keys
    guard let top = object(value, field: "", allowed: allowed) else {
      return .failure(ChallengeLoadError(problems: problems))
    }
    if let given = top.value("id") {
      if case .string(let text) = given, ChallengeLoader.isValidID(text) {
        id = text
      } else {
        problem("id", "must be a challenge id: 1 to 64 lowercase letters, digits and -")
      }
    }
    let title = string(top.value("title"), field: "title", required: true, maximumLength: 200) ?? ""
    let statement = text(top.value("statement"), field: "statement", limit: ChallengeLoader.maximumStatementBytes)
    let tags = parseTags(top.value("tags"))
    let topic = parseTopic(top.value("topic"))
    let limits = parseLimits(top.value("limits"))
    if let interactor = top.value("interactor") {
      return parseInteractiveChallenge(
        top, interactor: interactor, title: title, statement: statement ?? "", tags: tags, topic: topic, limits: limits)
    }
    if let function = top.value("function") {
      return parseFunctionChallenge(
        top, function: function, title: title, statement: statement ?? "", tags: tags, topic: topic, limits: limits)
    }
    if top.value("compare") != nil { problem("compare", "is only for function challenges (with \"function\")") }
    let checker = parseChecker(top.value("checker"))
    let stepChecker: StepChecker? = {
      if case .steps(let made, _)? = checker { return made }
      return nil
    }()
    let checkerIsSteps = checker == nil ? nil : stepChecker != nil
    let outputChecker = parseOutputChecker(top.value("output_checker"), checkerIsSteps: checkerIsSteps)
    let recorder = parseRecorder(top.value("recorder"), checkerIsSteps: checkerIsSteps)
    if top.value("reference") != nil {
      if checkerIsSteps == false {
        problem("reference", "is only for the steps checker: its steps are the expected ones")
      } else if recorder != nil {
        problem("reference", "give recorder or reference, not both: each gives the expected steps")
      } else {
        parseReference(top.value("reference"))
      }
    }
    let tests = parseTests(
      top.value("tests"), checkerIsSteps: checkerIsSteps, stepChecker: stepChecker, outputChecker: outputChecker != nil,
      recorder: recorder, function: nil)
    let starters = parseSourceFolder("starter").reduce(into: [String: SourceFile]()) { $0[$1.0] = $1.1 }
    var solutions: [ChallengeSolution] = []
    let growth = parseGrowth(top.value("growth"))
    for kind in [ChallengeSolution.Kind.correct, .wrong, .slow] {
      for (language, file) in parseSourceFolder("solutions/" + kind.rawValue) {
        solutions.append(ChallengeSolution(kind: kind, language: language, file: file))
      }
    }
    checkSolutionsFolder()
    let wrongSolution = parseWrongSolution(top.value("wrong_solution"), tests: tests, checkerIsSteps: checkerIsSteps)
    if wrongSolution == nil, top.value("wrong_solution") == nil, solutions.contains(where: { $0.kind == .wrong }) {
      problem("wrong_solution", "is required when solutions/wrong/ holds solutions: say how they must fail")
    }
    if growth?.slowSolution == nil, solutions.contains(where: { $0.kind == .slow }) {
      problem("growth.slow_solution", "is required when solutions/slow/ holds solutions: say how they must fail")
    }
    guard problems.isEmpty, var checker, let tests else { return .failure(ChallengeLoadError(problems: problems)) }
    if let stepChecker { checker = .steps(stepChecker, thenOutput: outputChecker) }
    return .success(
      Challenge(
        id: id, title: title, statement: statement ?? "", tags: tags, topic: topic, limits: limits, checker: checker,
        recorder: recorder, tests: tests, starters: starters, solutions: solutions, wrongSolution: wrongSolution,
        growth: growth, reference: reference))
  }

  /// A function challenge (docs/challenges.md, "Function challenges"): `function`, `compare` and
  /// tests of arguments and expected values; starters generated, solutions only in the languages
  /// with drivers.
  private mutating func parseFunctionChallenge(
    _ top: StrictObject, function value: JSONValue, title: String, statement: String, tags: [String], topic: String?,
    limits: StepLimits
  ) -> Result<Challenge, ChallengeLoadError> {
    let section = FunctionSectionParser(reader: reader)
    let signature = section.signature(value)
    // The one checker a function challenge takes: steps, over what the function prints during a test.
    var stepChecker: StepChecker?
    if let checker = top.value("checker") {
      switch parseChecker(checker) {
      case .steps(let made, _)?: stepChecker = made
      case nil: break
      default:
        problem(
          "checker",
          "a function challenge's values are compared by compare; its only checker is steps (the step lines the "
            + "function prints)")
      }
    }
    if top.value("reference") != nil {
      if stepChecker == nil {
        problem("reference", "is only for the steps checker: its steps are the expected ones")
      } else {
        parseReference(top.value("reference"))
      }
    }
    for key in FunctionSectionParser.stdinOnlyKeys where top.value(key) != nil {
      problem(
        key,
        "is not for function challenges: the function's result is compared with each test's expected value "
          + "(see compare)")
    }
    // `{"checker": {"language", "source"}}`: the challenge's program judges each returned value.
    var compare = top.value("compare")
    var valueChecker: CheckerProgram?
    if case .object(let fields)? = compare, fields["checker"] != nil {
      compare = nil
      if fields.count > 1 {
        problem("compare", "a checker program is the whole rule: {\"checker\": {\"language\", \"source\"}}")
      } else if case .object(let options)? = fields["checker"] {
        valueChecker = parseProgram(options, at: "compare.checker")
      } else {
        problem("compare.checker", "must be an object: {\"language\": \"cpp\", \"source\": \"checker.cpp\"}")
      }
    }
    let comparison = section.comparison(compare, returns: signature?.returns)
    let tests = parseTests(
      top.value("tests"), checkerIsSteps: stepChecker != nil, stepChecker: stepChecker, outputChecker: false,
      recorder: nil, function: (signature, comparison, top.value("compare") != nil && compare == nil))
    if !parseSourceFolder("starter").isEmpty {
      problem(
        "starter/",
        "a function challenge's starters are generated from its signature (dsa-run challenges starter ID --lang "
          + "LANG); remove starter/")
    }
    var solutions: [ChallengeSolution] = []
    for kind in [ChallengeSolution.Kind.correct, .wrong] {
      for (language, file) in parseSourceFolder("solutions/" + kind.rawValue) {
        guard FunctionDrivers.byLanguage[language] != nil else {
          problem("solutions/\(kind.rawValue)/\(file.name)", FunctionDrivers.unavailableMessage(language))
          continue
        }
        solutions.append(ChallengeSolution(kind: kind, language: language, file: file))
      }
    }
    let growth = parseGrowth(top.value("growth"))
    if let growth, let signature {
      for (index, growthCase) in growth.cases.enumerated() {
        if case .shape(let shape) = growthCase.input, !FunctionGrowth.shapeFits(shape, signature) {
          problem(
            "growth.cases[\(index)].input",
            "the shape's input fills \(FunctionGrowth.parameterRule(shape)); \(signature.name) takes ("
              + signature.parameters.map { "\($0.name): \($0.type)" }.joined(separator: ", ")
              + "): give a generator program that prints its arguments as one JSON object")
        }
      }
    }
    for (language, file) in parseSourceFolder("solutions/slow") {
      guard FunctionDrivers.byLanguage[language] != nil else {
        problem("solutions/slow/\(file.name)", FunctionDrivers.unavailableMessage(language))
        continue
      }
      solutions.append(ChallengeSolution(kind: .slow, language: language, file: file))
    }
    if growth?.slowSolution == nil, solutions.contains(where: { $0.kind == .slow }) {
      problem("growth.slow_solution", "is required when solutions/slow/ holds solutions: say how they must fail")
    }
    checkSolutionsFolder()
    let wrongSolution = parseWrongSolution(
      top.value("wrong_solution"), tests: tests, checkerIsSteps: stepChecker != nil)
    if wrongSolution == nil, top.value("wrong_solution") == nil, solutions.contains(where: { $0.kind == .wrong }) {
      problem("wrong_solution", "is required when solutions/wrong/ holds solutions: say how they must fail")
    }
    guard problems.isEmpty, let signature, let tests else { return .failure(ChallengeLoadError(problems: problems)) }
    return .success(
      Challenge(
        id: id, title: title, statement: statement, tags: tags, topic: topic, limits: limits,
        checker: valueChecker.map { .functionProgram($0) } ?? .function(comparison),
        recorder: nil, tests: tests, starters: FunctionDrivers.starters(signature), solutions: solutions,
        wrongSolution: wrongSolution, growth: growth, function: signature, functionSteps: stepChecker,
        reference: reference))
  }

  /// An interactive challenge (docs/challenges.md, "Interactive problems"): an `interactor` gives
  /// each test's verdict, so no checker; tests have a `stdin` (the interactor's input file) and
  /// may have an `expected_stdout` (its answer file).
  private mutating func parseInteractiveChallenge(
    _ top: StrictObject, interactor value: JSONValue, title: String, statement: String, tags: [String], topic: String?,
    limits: StepLimits
  ) -> Result<Challenge, ChallengeLoadError> {
    for key in ["checker", "output_checker", "recorder", "growth", "function", "compare", "reference"]
    where top.value(key) != nil {
      problem(key, "is not for interactive challenges: the interactor gives each test's verdict")
    }
    var interactor: CheckerProgram?
    if case .object(let fields) = value {
      interactor = parseProgram(fields, at: "interactor")
    } else {
      problem("interactor", "must be an object: {\"language\": \"cpp\", \"source\": \"interactor.cpp\"}")
    }
    if case .array(let items)? = top.value("tests") {
      for (index, item) in items.enumerated() {
        if case .object(let fields) = item, fields["expected_steps"] != nil {
          problem("tests[\(index)].expected_steps", "is only for the steps checker")
        }
      }
    }
    let tests = parseTests(
      top.value("tests"), checkerIsSteps: nil, stepChecker: nil, outputChecker: false, recorder: nil, function: nil)
    let starters = parseSourceFolder("starter").reduce(into: [String: SourceFile]()) { $0[$1.0] = $1.1 }
    var solutions: [ChallengeSolution] = []
    for kind in [ChallengeSolution.Kind.correct, .wrong] {
      for (language, file) in parseSourceFolder("solutions/" + kind.rawValue) {
        solutions.append(ChallengeSolution(kind: kind, language: language, file: file))
      }
    }
    if !parseSourceFolder("solutions/slow").isEmpty {
      problem("solutions/slow/", "is for growth, which interactive challenges do not have")
    }
    checkSolutionsFolder()
    let wrongSolution = parseWrongSolution(top.value("wrong_solution"), tests: tests, checkerIsSteps: false)
    if wrongSolution == nil, top.value("wrong_solution") == nil, solutions.contains(where: { $0.kind == .wrong }) {
      problem("wrong_solution", "is required when solutions/wrong/ holds solutions: say how they must fail")
    }
    guard problems.isEmpty, let interactor, let tests else { return .failure(ChallengeLoadError(problems: problems)) }
    return .success(
      Challenge(
        id: id, title: title, statement: statement, tags: tags, topic: topic, limits: limits,
        checker: .interactor(interactor),
        recorder: nil, tests: tests, starters: starters, solutions: solutions, wrongSolution: wrongSolution))
  }

  // MARK: - Sections

  /// `growth` (GrowthSection.swift reads it).
  private mutating func parseGrowth(_ value: JSONValue?) -> GrowthSection? {
    guard let value else { return nil }
    var growth = GrowthSectionParser(directory: directory, reader: reader)
    return growth.parse(value)
  }

  private mutating func parseTags(_ value: JSONValue?) -> [String] {
    guard let value else { return [] }
    guard case .array(let items) = value, items.count <= 16 else {
      problem("tags", "must be an array of at most 16 strings")
      return []
    }
    var tags: [String] = []
    for (index, item) in items.enumerated() {
      if let tag = string(item, field: "tags[\(index)]", required: true, maximumLength: 32) { tags.append(tag) }
    }
    return tags
  }

  /// `topic`: one of `ChallengeTopics.all`, spelled as there; a near miss ("sorting") is named.
  private mutating func parseTopic(_ value: JSONValue?) -> String? {
    guard let value else { return nil }
    guard let topic = string(value, field: "topic", required: true, maximumLength: 64) else { return nil }
    if ChallengeTopics.all.contains(topic) { return topic }
    let listed = ChallengeTopics.all.map { "\"\($0)\"" }.joined(separator: ", ")
    let near = ChallengeTopics.all.first { $0.lowercased() == topic.lowercased() }
    problem(
      "topic",
      (near.map { "\"\(topic)\" is not a topic; did you mean \"\($0)\"? " } ?? "\"\(topic)\" is not a topic. ")
        + "A topic is one of \(listed) (docs/challenges.md, \"Topics\"); leave it out to list the challenge under "
        + "\"\(ChallengeTopics.other)\"")
    return nil
  }

  private func parseLimits(_ value: JSONValue?) -> StepLimits {
    ChallengeLoader.limits(value, at: "limits", reader: reader)
  }

  /// `{"name": ..., "options": {...}}`.
  private mutating func checkerNameAndOptions(_ value: JSONValue, field: String) -> (String, CheckerOptions)? {
    guard let fields = object(value, field: field, allowed: ["name", "options"]) else { return nil }
    guard let name = string(fields.value("name"), field: field + ".name", required: true, maximumLength: 64) else {
      return nil
    }
    guard let options = fields.value("options") else { return (name, [:]) }
    guard case .object(let dictionary) = options else {
      problem(field + ".options", "must be an object")
      return nil
    }
    return (name, dictionary)
  }

  private mutating func parseChecker(_ value: JSONValue?) -> ChallengeChecker? {
    guard let value else {
      problem("checker", "is required, e.g. {\"name\": \"lines\"}")
      return nil
    }
    guard let (name, options) = checkerNameAndOptions(value, field: "checker") else { return nil }
    if name == CheckerProgram.name { return parseProgram(options).map { .program($0) } }
    do {
      // The output checker, if any, is read after this and joins the steps when the challenge is built.
      if name == StepChecker.name { return .steps(try StepChecker(options: options), thenOutput: nil) }
      return .output(try Checkers.make(name: name, options: options))
    } catch {
      let known = (Checkers.names + [CheckerProgram.name]).joined(separator: ", ")
      if !Checkers.names.contains(name) {
        problem("checker.name", "unknown checker \"\(name)\"; known checkers: \(known)")
      } else {
        problem("checker.options", error.message)
      }
      return nil
    }
  }

  /// A program of the challenge's (`{"language", "source"}` at `at`): a custom checker's options,
  /// or an interactor.
  private mutating func parseProgram(_ options: CheckerOptions, at place: String = "checker.options")
    -> CheckerProgram?
  {
    guard let fields = object(.object(options), field: place, allowed: ["language", "source"]) else {
      return nil
    }
    let language = string(fields.value("language"), field: place + ".language", required: true, maximumLength: 32)
    if let language, !ChallengeLanguages.names.contains(language) {
      problem(
        place + ".language",
        "unknown language \"\(language)\"; known: " + ChallengeLanguages.names.joined(separator: ", "))
    }
    let field = place + ".source"
    guard let source = contents(fields.value("source"), field: field, limit: ChallengeLoader.maximumSourceBytes) else {
      return nil
    }
    guard let language, ChallengeLanguages.names.contains(language) else { return nil }
    var name = ""
    if directory != nil, case .string(let path) = fields.value("source") {
      name = String(path.split(separator: "/").last ?? "")
      if ChallengeLanguages.language(ofFile: name) != language {
        problem(field, "\(path): the file's extension does not name the language \(language)")
        return nil
      }
    }
    return CheckerProgram(language: language, source: SourceFile(name: name, contents: source))
  }

  private mutating func parseOutputChecker(_ value: JSONValue?, checkerIsSteps: Bool?) -> (any Checker)? {
    guard let value else { return nil }
    if checkerIsSteps == false {
      problem("output_checker", "is only for the steps checker (the checker itself compares the output)")
      return nil
    }
    guard let (name, options) = checkerNameAndOptions(value, field: "output_checker") else { return nil }
    let allowed = Checkers.names.filter { $0 != StepChecker.name }
    guard allowed.contains(name) else {
      problem("output_checker.name", "must be one of \(allowed.joined(separator: ", ")), got \"\(name)\"")
      return nil
    }
    do {
      return try Checkers.make(name: name, options: options)
    } catch {
      problem("output_checker.options", error.message)
      return nil
    }
  }

  private mutating func parseRecorder(_ value: JSONValue?, checkerIsSteps: Bool?) -> RecorderSpec? {
    guard let value else { return nil }
    if checkerIsSteps == false {
      problem("recorder", "is only for the steps checker")
      return nil
    }
    guard let fields = object(value, field: "recorder", allowed: ["name", "directed"]) else { return nil }
    guard let name = string(fields.value("name"), field: "recorder.name", required: true, maximumLength: 64) else {
      return nil
    }
    guard RecorderInput.names.contains(name) else {
      problem(
        "recorder.name", "unknown recorder \"\(name)\"; known recorders: " + RecorderInput.names.joined(separator: ", ")
      )
      return nil
    }
    var directed = false
    if let value = fields.value("directed") {
      guard RecorderInput.graphNames.contains(name) else {
        problem("recorder.directed", "only the graph recorders (bfs, dfs, dijkstra) take \"directed\"")
        return nil
      }
      guard case .bool(let flag) = value else {
        problem("recorder.directed", "must be true or false")
        return nil
      }
      directed = flag
    }
    return RecorderSpec(name: name, directed: directed)
  }

  private mutating func parseTests(
    _ value: JSONValue?, checkerIsSteps: Bool?, stepChecker: StepChecker?, outputChecker: Bool,
    recorder: RecorderSpec?,
    function: (signature: FunctionSignature?, comparison: FunctionComparison, checkedByProgram: Bool)?
  ) -> [ChallengeTest]? {
    guard let value else {
      problem("tests", "is required: an array of 1 to \(ChallengeLoader.maximumTests) tests")
      return nil
    }
    guard case .array(let items) = value, (1...ChallengeLoader.maximumTests).contains(items.count) else {
      problem("tests", "must be an array of 1 to \(ChallengeLoader.maximumTests) tests")
      return nil
    }
    var tests: [ChallengeTest] = []
    var names: Set<String> = []
    let before = problems.count
    for (index, item) in items.enumerated() {
      let field = "tests[\(index)]"
      let keys =
        function != nil
        ? FunctionSectionParser.testKeys + ["expected_steps"]
        : ["name", "stdin", "expected_stdout", "expected_steps", "points", "hidden"]
      guard let fields = object(item, field: field, allowed: keys) else { continue }
      var name = String(index + 1)
      if let given = string(fields.value("name"), field: field + ".name", required: false, maximumLength: 64) {
        let valid = given.utf8.allSatisfy {
          (65...90).contains($0) || (97...122).contains($0) || (48...57).contains($0) || $0 == 45 || $0 == 95
        }
        if !valid { problem(field + ".name", "must be 1 to 64 letters, digits, - or _, got \"\(given)\"") }
        name = given
      }
      if !names.insert(name).inserted { problem(field + ".name", "another test is already named \"\(name)\"") }
      var points = 1.0
      if let value = fields.value("points") {
        if case .number(let number) = value, number > 0, number <= ChallengeLoader.maximumPoints {
          points = number
        } else {
          problem(field + ".points", "must be a positive number of at most \(Int(ChallengeLoader.maximumPoints))")
        }
      }
      var hidden = false
      if let value = fields.value("hidden") {
        if case .bool(let flag) = value {
          hidden = flag
        } else {
          problem(field + ".hidden", "must be true or false")
        }
      }
      if let function {
        // The files are read (and counted) even when the signature is broken, so --check shows their problems too.
        let argumentsFile =
          fields.has("args_file")
          ? testFile(fields.value("args_file"), field: field + ".args_file", required: true) : nil
        let expectedFile =
          fields.has("expected_file")
          ? testFile(fields.value("expected_file"), field: field + ".expected_file", required: true) : nil
        guard let signature = function.signature else { continue }
        let section = FunctionSectionParser(reader: reader)
        let arguments = section.arguments(fields, field: field, signature: signature, fileContents: argumentsFile)
        let expected: FunctionValue?
        if function.checkedByProgram, !fields.has("expected"), !fields.has("expected_file") {
          // A checker program may need no expected value (any topological order is right).
          expected = nil
        } else {
          guard
            let read = section.expected(
              fields, field: field, signature: signature, comparison: function.comparison, fileContents: expectedFile)
          else { continue }
          expected = read
        }
        guard let arguments else { continue }
        let values = DeferredTestFiles.values(arguments: arguments, expected: expected, signature: signature)
        var test = ChallengeTest(
          name: name, stdin: values.stdin, expectedStdout: values.expectedStdout, points: points, hidden: hidden)
        test.arguments = arguments
        test.expected = expected
        if let stepChecker {
          test.expectedSteps = stepsFromFileOrReference(
            fields, field: field, index: index, name: name, input: test.stdin, checker: stepChecker)
        } else if fields.value("expected_steps") != nil {
          problem(field + ".expected_steps", "is only for the steps checker")
        }
        if let root = deferringFilesUnder, argumentsFile != nil || expectedFile != nil {
          func file<Value>(_ key: String, _ contents: Data?) -> DeferredTestFiles.Part<Value>? {
            guard let contents, case .string(let path)? = fields.value(key) else { return nil }
            return .file(path: path, digest: SHA256.hex(contents))
          }
          test.deferredFiles = DeferredTestFiles(
            root: root, challenge: id, test: name, signature: signature, comparison: function.comparison,
            arguments: file("args_file", argumentsFile) ?? .inline(arguments),
            expected: file("expected_file", expectedFile) ?? expected.map { .inline($0) },
            fileBytes: (argumentsFile?.count ?? 0) + (expectedFile?.count ?? 0))
          test.stdin = Data()
          test.expectedStdout = nil
          test.arguments = nil
          test.expected = nil
        }
        tests.append(test)
        continue
      }
      let stdin = testFile(fields.value("stdin"), field: field + ".stdin", required: true)
      let expectedStdout = testFile(fields.value("expected_stdout"), field: field + ".expected_stdout", required: false)
        .flatMap { utf8($0, field: field + ".expected_stdout") }
      let stepsText = testFile(fields.value("expected_steps"), field: field + ".expected_steps", required: false)
        .flatMap { utf8($0, field: field + ".expected_steps") }
      let checksOutput = checkerIsSteps == false || outputChecker
      if checkerIsSteps != nil {
        if checksOutput, fields.value("expected_stdout") == nil {
          problem(field, "expected_stdout is required: the \(checkerIsSteps! ? "output " : "")checker compares output")
        }
        if !checksOutput, fields.value("expected_stdout") != nil {
          problem(
            field + ".expected_stdout",
            "is not used: the steps checker compares only steps unless output_checker is set")
        }
        if checkerIsSteps == false, fields.value("expected_steps") != nil {
          problem(field + ".expected_steps", "is only for the steps checker")
        }
      }
      var expectedSteps: [Step]?
      if let stepChecker, let stdin {
        if let stepsText {
          expectedSteps = parseExpectedSteps(stepsText, field: field + ".expected_steps", checker: stepChecker)
        } else if let recorder {
          do {
            let recorded = try RecorderInput.record(recorder, stdin: String(decoding: stdin, as: UTF8.self))
            checkSteps(recorded, field: field + ".stdin", source: "the \(recorder.name) recorder", checker: stepChecker)
          } catch {
            problem(field + ".stdin", "the \(recorder.name) recorder cannot read it: \(error.message)")
          }
        } else if reference != nil {
          expectedSteps = stepsFromFileOrReference(
            fields, field: field, index: index, name: name, input: stdin, checker: stepChecker)
        } else if fields.value("expected_steps") == nil {
          problem(field, "expected_steps is required: the challenge has no recorder to take the steps from")
        }
      }
      if let stdin {
        tests.append(
          ChallengeTest(
            name: name, stdin: stdin, expectedStdout: expectedStdout, expectedSteps: expectedSteps, points: points,
            hidden: hidden))
      }
    }
    // A field no expected step of any test has is a misspelling that would silently compare nothing;
    // one test may lack a field legitimately (Dijkstra from a node with no edges never relaxes).
    if let stepChecker, !stepSources.isEmpty {
      for name in stepChecker.fields where !stepFieldsSeen.contains(name) {
        problem(
          "checker.options.fields",
          "the checker compares field \"\(name)\", which no step from \(stepSources.sorted().joined(separator: " or ")) has"
        )
      }
    }
    return problems.count == before ? tests : nil
  }

  /// A steps test's expected steps: its `expected_steps` file, else the steps recorded from the
  /// reference (nil while recording them).
  private mutating func stepsFromFileOrReference(
    _ fields: StrictObject, field: String, index: Int, name: String, input: Data, checker: StepChecker
  ) -> [Step]? {
    if fields.value("expected_steps") != nil {
      let text = testFile(fields.value("expected_steps"), field: field + ".expected_steps", required: false)
        .flatMap { utf8($0, field: field + ".expected_steps") }
      return text.flatMap { parseExpectedSteps($0, field: field + ".expected_steps", checker: checker) }
    }
    guard let reference else {
      problem(field, "expected_steps is required: the challenge has no reference to take the steps from")
      return nil
    }
    self.reference?.recordedTests.append(index)
    if recording { return nil }
    let path = RecordedStepsStamp.stepsPath(test: name)
    let why: String?
    var text: String?
    if let stamp {
      let data = try? directory?.read(path, limit: ChallengeLoader.maximumTestFileBytes)
      text = data.flatMap { String(data: $0, encoding: .utf8) }
      why = stamp.staleness(test: name, input: input, steps: text, reference: reference)
    } else {
      why = "\(RecordedStepsStamp.path) is missing"
    }
    if let why {
      problem(
        field,
        "the steps recorded from the reference \(reference.path) are out of date (\(why)); record them again: "
          + "dsa-run challenges --check --record \(directory?.path ?? "DIR")")
      return nil
    }
    return text.flatMap { parseExpectedSteps($0, field: path, checker: checker) }
  }

  /// `reference`: a solution in the challenge directory (any language) whose steps are recorded
  /// ahead (`--record`); never in an inline challenge, whose grade may not run the author's code.
  private mutating func parseReference(_ value: JSONValue?) {
    guard let directory else {
      problem(
        "reference",
        "is only for a challenge directory: its steps are recorded ahead by dsa-run challenges --check --record; "
          + "send expected_steps instead")
      return
    }
    guard case .string(let path)? = value else {
      problem("reference", "must be a string (a relative path)")
      return
    }
    let name = String(path.split(separator: "/").last ?? "")
    guard let language = ChallengeLanguages.language(ofFile: name) else {
      problem("reference", "\(path): the extension names no language")
      return
    }
    guard let contents = contents(value, field: "reference", limit: ChallengeLoader.maximumSourceBytes) else { return }
    reference = ChallengeReference(
      path: path, language: language, file: SourceFile(name: name, contents: contents), recordedTests: [])
    guard !recording else { return }
    let data: Data
    do {
      data = try directory.read(RecordedStepsStamp.path, limit: ChallengeLoader.maximumDescriptionBytes)
    } catch {
      // A missing stamp is said at each test that needs it; any other failure here.
      if !"\(error)".hasSuffix("no such file") { problem(RecordedStepsStamp.path, "\(error)") }
      return
    }
    switch RecordedStepsStamp.read(data) {
    case .success(let read): stamp = read
    case .failure(let failure): problem(RecordedStepsStamp.path, failure.message)
    }
  }

  private mutating func parseExpectedSteps(_ text: String, field: String, checker: StepChecker) -> [Step]? {
    let parser = StepParser(
      maximumSteps: 1_000_000, maximumLineBytes: 16 << 20, maximumDepth: 64,
      maximumTotalBytes: ChallengeLoader.maximumTestFileBytes)
    let parsed: ParsedSteps
    switch parser.parse(text) {
    case .failure(let error):
      problem(field, "\(error)")
      return nil
    case .success(let result): parsed = result
    }
    var lineNumber = 0
    for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
      lineNumber += 1
      if !line.hasPrefix(StepParser.prefix), !line.allSatisfy(\.isWhitespace) {
        problem(field, "line \(lineNumber) is not a step line (\"@step {...}\"); a steps file holds only steps")
        return nil
      }
    }
    for (index, step) in parsed.steps.enumerated() where (step.caption ?? "").isEmpty {
      problem(field, "step \(index + 1) has no caption: every expected step explains itself to the learner")
      return nil
    }
    checkSteps(parsed.steps, field: field, source: "the file", checker: checker)
    return parsed.steps
  }

  /// Expected steps the learner can match at all: some, within the checker's bound; their fields are
  /// collected to check every declared field against all tests at the end.
  private mutating func checkSteps(_ steps: [Step], field: String, source: String, checker: StepChecker) {
    if steps.isEmpty { problem(field, "\(source) gives no steps") }
    if steps.count > checker.parser.maximumSteps {
      problem(
        field,
        "\(source) gives \(steps.count) steps, more than the steps checker's max_steps (\(checker.parser.maximumSteps))"
      )
    }
    for step in steps { stepFieldsSeen.formUnion(step.fields.keys) }
    stepSources.insert(source)
  }

  private mutating func parseWrongSolution(_ value: JSONValue?, tests: [ChallengeTest]?, checkerIsSteps: Bool?)
    -> WrongSolutionExpectation?
  {
    guard let value else { return nil }
    guard let fields = object(value, field: "wrong_solution", allowed: ["verdict", "test", "step"]) else { return nil }
    let allowed = GradeVerdict.allCases.filter { $0 != .accepted && $0 != .skipped }
    let word = string(fields.value("verdict"), field: "wrong_solution.verdict", required: true, maximumLength: 32)
    let verdict = word.flatMap { GradeVerdict(rawValue: $0) }
    if let word, verdict == nil || !allowed.contains(verdict!) {
      problem(
        "wrong_solution.verdict", "must be one of \(allowed.map(\.rawValue).joined(separator: ", ")), got \"\(word)\"")
    }
    let test = string(fields.value("test"), field: "wrong_solution.test", required: true, maximumLength: 64)
    if let test, let tests, !tests.contains(where: { $0.name == test }) {
      problem("wrong_solution.test", "no test is named \"\(test)\"")
    }
    var step: Int?
    if let value = fields.value("step") {
      if checkerIsSteps == false {
        problem("wrong_solution.step", "is only for steps challenges")
      } else if case .number(let number) = value, number >= 1, number == number.rounded(), number < 1e9 {
        step = Int(number)
      } else {
        problem("wrong_solution.step", "must be a positive whole number (the first differing step, from 1)")
      }
    }
    guard let verdict, allowed.contains(verdict), let test else { return nil }
    return WrongSolutionExpectation(verdict: verdict, test: test, step: step)
  }

  /// `starter/` or `solutions/<kind>/`: one source file per language, named by its extension.
  private mutating func parseSourceFolder(_ folder: String) -> [(String, SourceFile)] {
    guard let directory else { return [] }
    let entries: [ChallengeDirectory.Entry]
    do {
      guard let listed = try directory.list(folder) else { return [] }
      entries = listed
    } catch {
      problem(folder + "/", "\(error)")
      return []
    }
    var files: [(String, SourceFile)] = []
    for entry in entries where !entry.name.hasPrefix(".") {
      let path = folder + "/" + entry.name
      guard entry.kind == .file else {
        problem(path, entry.kind == .link ? "is a symbolic link; challenge files may not be links" : "is not a file")
        continue
      }
      guard let language = ChallengeLanguages.language(ofFile: entry.name) else {
        let known = ChallengeLanguages.byExtension.keys.sorted().map { "." + $0 }.joined(separator: ", ")
        problem(path, "the extension names no language; known: \(known)")
        continue
      }
      if let other = files.first(where: { $0.0 == language }) {
        problem(path, "\(folder)/\(other.1.name) is already the \(language) file; give one per language")
        continue
      }
      do {
        let contents = try directory.read(path, limit: ChallengeLoader.maximumSourceBytes)
        files.append((language, SourceFile(name: entry.name, contents: contents)))
      } catch {
        problem(path, "\(error)")
      }
    }
    return files
  }

  /// `solutions/` holds only `correct/` and `wrong/`.
  private mutating func checkSolutionsFolder() {
    guard let directory, let entries = try? directory.list("solutions") else { return }
    for entry in entries where !entry.name.hasPrefix(".") {
      if entry.kind != .directory || !["correct", "wrong", "slow"].contains(entry.name) {
        problem("solutions/" + entry.name, "solutions/ holds only the folders correct/, wrong/ and slow/")
      }
    }
  }

  // MARK: - Values

  /// An object whose keys are all allowed; each unknown key is a problem (the strict reader's).
  private func object(_ value: JSONValue?, field: String, allowed: [String]) -> StrictObject? {
    guard let value else {
      problem(field, "is required")
      return nil
    }
    return reader.object(value, at: field, keys: allowed)
  }

  private mutating func string(_ value: JSONValue?, field: String, required: Bool, maximumLength: Int) -> String? {
    guard let value else {
      if required { problem(field, "is required") }
      return nil
    }
    guard case .string(let text) = value, !text.isEmpty, text.count <= maximumLength else {
      problem(field, "must be a non-empty string of at most \(maximumLength) characters")
      return nil
    }
    return text
  }

  /// A file field's contents: the file it names, or (inline) the string itself.
  private mutating func contents(_ value: JSONValue?, field: String, limit: Int) -> Data? {
    switch ChallengeLoader.fileField(value, in: directory, limit: limit) {
    case .success(let data): return data
    case .failure(let failure):
      problem(field, failure.message)
      return nil
    }
  }

  private mutating func text(_ value: JSONValue?, field: String, limit: Int) -> String? {
    contents(value, field: field, limit: limit).flatMap { utf8($0, field: field) }
  }

  private mutating func utf8(_ data: Data, field: String) -> String? {
    guard let text = String(data: data, encoding: .utf8) else {
      problem(field, "is not UTF-8 text")
      return nil
    }
    return text
  }

  /// A test file, counted against the challenge's total.
  private mutating func testFile(_ value: JSONValue?, field: String, required: Bool) -> Data? {
    guard value != nil || required else { return nil }
    guard let data = contents(value, field: field, limit: ChallengeLoader.maximumTestFileBytes) else { return nil }
    testBytes += data.count
    if testBytes > ChallengeLoader.maximumTotalTestBytes,
      testBytes - data.count <= ChallengeLoader.maximumTotalTestBytes
    {
      problem(field, "the test files pass \(ChallengeDirectory.size(ChallengeLoader.maximumTotalTestBytes)) in all")
    }
    return data
  }

  /// A decoding error in a line, without Foundation's nesting.
  static func explain(_ error: any Error) -> String {
    if let decoding = error as? DecodingError, case .dataCorrupted(let context) = decoding {
      let underlying = (context.underlyingError as? NSError)?.userInfo[NSDebugDescriptionErrorKey] as? String
      return underlying ?? context.debugDescription
    }
    return "\(error)"
  }
}

/// Why a file field could not be read, in the words `problem(field, ...)` shows.
struct FileFieldProblem: Error {
  let message: String
}

extension ChallengeLoader {
  /// The keys of a `limits` object (the challenge's and the growth section's).
  static let limitKeys = ["cpu_ms", "wall_ms", "memory_mb", "output_kb", "processes"]

  /// A `limits` object at `path`: positive whole numbers, which together must fit the sandbox's
  /// ceilings; absent, the sandbox's defaults.
  static func limits(_ value: JSONValue?, at path: String, reader: StrictReader) -> StepLimits {
    var limits = StepLimits()
    guard let value, let fields = reader.object(value, at: path, keys: limitKeys) else { return limits }
    func positive(_ key: String) -> UInt64? { fields.integer(key, as: UInt64.self, in: 1...999_999_999_999) }
    limits.cpuMilliseconds = positive("cpu_ms")
    limits.wallMilliseconds = positive("wall_ms")
    limits.memoryMegabytes = positive("memory_mb")
    limits.outputKilobytes = positive("output_kb")
    limits.processes = positive("processes")
    if let violation = limits.applied(to: BoxLimits()).violation() { reader.report(path, violation) }
    return limits
  }

  /// A file field of challenge.json (a starter, a test file, a generator): the file it names inside
  /// `directory` (bounded, no links, no way out), or for an inline challenge (`directory` nil) the
  /// string itself, bounded alike. One reader for every section, so all of them refuse the same way.
  static func fileField(_ value: JSONValue?, in directory: ChallengeDirectory?, limit: Int) -> Result<
    Data, FileFieldProblem
  > {
    guard let value else { return .failure(FileFieldProblem(message: "is required")) }
    guard case .string(let text) = value else {
      return .failure(
        FileFieldProblem(
          message: directory == nil ? "must be a string (the contents)" : "must be a string (a relative path)"))
    }
    guard let directory else {
      guard text.utf8.count <= limit else {
        return .failure(
          FileFieldProblem(
            message: "is \(text.utf8.count) bytes, more than the \(ChallengeDirectory.size(limit)) allowed"))
      }
      return .success(Data(text.utf8))
    }
    do {
      return .success(try directory.read(text, limit: limit))
    } catch {
      return .failure(FileFieldProblem(message: "\(error)"))
    }
  }
}

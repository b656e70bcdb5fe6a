import Challenges
import Runners
import Sandbox

// Admission: every check a run or a grade makes before it starts, pure (nothing charged, stored or
// queued), so a stored submission is refused at submit time exactly as a synchronous run is.

extension RunService {
  /// Every check a run of `ask` makes before its program starts: the language, the files as the
  /// box will name them, the arguments, every limit against the maxima.
  public func admit(_ ask: RunAsk, context: inout RunContext) throws(APIError) -> ExecuteRequest {
    var runner = try self.runner(language: ask.language, version: ask.version, context: &context)
    if let problem = Executor.argumentsProblem(ask.arguments) { throw .badRequest(problem) }
    if let problem = CompilerOptions.problem(ask.compilerOptions, runner: runner) { throw .badRequest(problem) }
    runner = runner.withCompilerOptions(ask.compilerOptions)
    try checkFiles(ask.files, runner: runner, requestedAs: ask.language)
    var request = ExecuteRequest(language: ask.language, version: ask.version, files: ask.files)
    request.runner = runner
    request.stdin = ask.stdin
    request.arguments = ask.arguments
    request.mergesStderrIntoStdout = ask.mergesStderrIntoStdout
    var maxima = settings.maxima
    var asked = ask.limits
    if let live = ask.liveWallMilliseconds {
      maxima.wallMilliseconds = live
      asked.wallMilliseconds = asked.wallMilliseconds ?? Int64(clamping: live)
    }
    request.runLimits = try maxima.admit(
      asked, runnerDefaults: runner.runLimits(), chooser: .caller, field: ask.limitsField)
    return request
  }

  /// Every check a grade of `ask` makes before it starts: the language, the files, and every limit
  /// of the challenge (its tests', its growth section's, its checker program's) against the maxima.
  public func admit(_ ask: GradeAsk, context: inout RunContext) throws(APIError) -> GradeRequest {
    let runner = try self.runner(language: ask.language, version: ask.version, context: &context)
    try checkFiles(ask.files, runner: runner, requestedAs: ask.language, challenge: ask.challenge)
    let maxima = settings.maxima
    let chooser: LimitChooser = ask.inline ? .caller : .operatorChoice
    var challenge = ask.challenge
    challenge.limits = try maxima.admit(
      AskedLimits(challenge.limits), runnerDefaults: runner.runLimits(), chooser: chooser, field: "challenge.limits.")
    if var growth = challenge.growth {
      // A growth size runs with the challenge's limits under the section's own; both are admitted.
      var merged = challenge.limits
      let own = growth.limits
      merged.cpuMilliseconds = own.cpuMilliseconds ?? merged.cpuMilliseconds
      merged.wallMilliseconds = own.wallMilliseconds ?? merged.wallMilliseconds
      merged.memoryMegabytes = own.memoryMegabytes ?? merged.memoryMegabytes
      merged.outputKilobytes = own.outputKilobytes ?? merged.outputKilobytes
      merged.processes = own.processes ?? merged.processes
      growth.limits = try maxima.admit(
        AskedLimits(merged), runnerDefaults: runner.runLimits(), chooser: chooser,
        field: "challenge.growth.limits.")
      challenge.growth = growth
    }
    let checkerLimits = try maxima.admit(
      AskedLimits(CheckerProgramRunner.defaultLimits), runnerDefaults: BoxLimits(), chooser: .operatorChoice,
      field: "checker limits.")
    return GradeRequest(ask: ask, runner: runner, challenge: challenge, checkerLimits: checkerLimits)
  }
}

import Foundation
import Sandbox
import Synchronization

/// One of two programs run at once (`Executor.runTogether`), live: its stdin is `live.input` and
/// its output goes to `live.output`, for the caller to connect with the other program's.
public struct TogetherRun: Sendable {
  public var program: PreparedProgram
  public var arguments: [String]
  public var limits: StepLimits
  /// Written into /box beside the program (an interactor's test input).
  public var extraFiles: [SourceFile]
  public var live: BoxLive
  /// Called on the thread that ran it as soon as this side's run is over (or could not start),
  /// before the other side's ends: the caller ends the other program's input then.
  public var ended: @Sendable (Result<Outcome, ExecuteError>) -> Void

  public init(
    program: PreparedProgram, arguments: [String] = [], limits: StepLimits, extraFiles: [SourceFile] = [],
    live: BoxLive, ended: @escaping @Sendable (Result<Outcome, ExecuteError>) -> Void
  ) {
    self.program = program
    self.arguments = arguments
    self.limits = limits
    self.extraFiles = extraFiles
    self.live = live
    self.ended = ended
  }
}

extension Executor {
  /// Runs two prepared programs at once, each in a box of its own with its own limits (an
  /// interactive test's program and interactor), and returns both outcomes, or the error of a
  /// side that could not run.
  ///
  /// A gated executor runs both in one turn of its gate, so both boxes take one box slot: two
  /// slots taken one after the other could leave two such runs each holding one slot and waiting
  /// for a second that never comes free. (The pair's second program mostly waits on the first.)
  /// Both boxes are taken from the pool on the calling thread, which is the one a box's processes
  /// are tied to (`PR_SET_PDEATHSIG`); the second runs on a thread of its own with the caller's
  /// `BoxCancellation`, if any, made current there.
  public func runTogether(_ first: TogetherRun, _ second: TogetherRun) throws(ExecuteError) -> (
    Result<Outcome, ExecuteError>, Result<Outcome, ExecuteError>
  ) {
    let commands = try [first, second].map { side throws(ExecuteError) in
      try runCommand(
        side.program, stdin: Data(), arguments: side.arguments, limits: side.limits, extraFiles: side.extraFiles,
        live: side.live)
    }
    let environments = self.environments
    let work = { @Sendable () throws(ExecuteError) -> [Result<Outcome, ExecuteError>] in
      try Self.runTogether(commands, sides: [first, second], in: environments)
    }
    let results: [Result<Outcome, ExecuteError>]
    if let gate {
      results = try gate.run(boxCount: 2, work)
    } else {
      results = try work()
    }
    return (results[0], results[1])
  }

  private static func runTogether<Pool: BoxEnvironmentPool>(
    _ commands: [BoxCommand], sides: [TogetherRun], in pool: Pool
  ) throws(ExecuteError) -> [Result<Outcome, ExecuteError>] {
    var boxes: [Pool.Environment] = []
    defer { for box in boxes { pool.put(box) } }
    for command in commands {
      do throws(SandboxError) {
        boxes.append(try pool.get(layout: BoxLayout(command.spec), limits: command.spec.limits))
      } catch {
        throw .sandbox(error)
      }
    }
    let secondResult = Mutex<Result<Outcome, ExecuteError>?>(nil)
    let finished = DispatchSemaphore(value: 0)
    let cancellation = BoxCancellation.current
    let secondBox = boxes[1]
    let thread = Thread {
      let run = { () -> Result<Outcome, ExecuteError> in
        Self.runSide(commands[1], side: sides[1], in: secondBox)
      }
      let result = cancellation.map { $0.within(run) } ?? run()
      secondResult.withLock { $0 = result }
      finished.signal()
    }
    thread.name = "dsa-run interaction"
    thread.start()
    let firstResult = runSide(commands[0], side: sides[0], in: boxes[0])
    finished.wait()
    return [firstResult, secondResult.withLock { $0! }]
  }

  private static func runSide(_ command: BoxCommand, side: TogetherRun, in box: some BoxEnvironment)
    -> Result<Outcome, ExecuteError>
  {
    let result: Result<Outcome, ExecuteError>
    do throws(SandboxError) {
      var outcome = try box.run(command)
      outcome.rewriteText(stdout: false) { LearnerNames.rewrite($0, names: side.program.learnerNames) }
      result = .success(outcome)
    } catch {
      result = .failure(.sandbox(error))
    }
    side.ended(result)
    return result
  }
}

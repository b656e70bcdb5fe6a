import Foundation

// The seam between the sandbox and what runs programs in it, shaped like go-judge's
// `envexec.Environment` and `worker.EnvironmentPool`: an environment runs one command with its
// limits, files and stdin and returns an `Outcome`; a pool gets, puts and destroys environments.
// The one-shot `Box` (through `OneShotBoxes`) and the `WarmBox` (through `BoxPool`) implement it,
// and so does the tests' fake (SandboxTesting), which needs no kernel.

/// A file put into /box before a command runs.
public struct BoxFile: Sendable, Equatable {
  /// A path relative to /box (`BoxDirectory.validate`).
  public var name: String
  public var contents: Data
  public var executable: Bool

  public init(name: String, contents: Data, executable: Bool = false) {
    self.name = name
    self.contents = contents
    self.executable = executable
  }
}

/// One command for an environment: what runs under which limits (`spec`), the files it finds in
/// /box, and its stdin.
public struct BoxCommand: Sendable {
  public var spec: BoxSpec
  public var files: [BoxFile]
  public var stdin: Data
  /// Runs the command live: stdin from `live.input` as it is sent (`stdin` must then be empty),
  /// output to `live.output` as it is read. The outcome is what a run with the same stdin given
  /// whole would report; every environment honours it (the fake plays its output through it).
  public var live: BoxLive?

  public init(spec: BoxSpec, files: [BoxFile] = [], stdin: Data = Data(), live: BoxLive? = nil) {
    self.spec = spec
    self.files = files
    self.stdin = stdin
    self.live = live
  }
}

/// A box that runs commands, one at a time, each from a fresh /box.
public protocol BoxEnvironment: AnyObject, Sendable {
  /// Writes the command's files into /box, runs it and reports what the program did. Throws only
  /// when the sandbox failed (or the command does not fit this environment's layout and limits).
  func run(_ command: BoxCommand) throws(SandboxError) -> Outcome
  /// A regular file the last run left in /box, at most `limit` bytes, never read through a link.
  func readFile(_ name: String, limit: Int) throws(SandboxError) -> Data
  /// Every regular file under a /box directory the last run left, as (path below /box, bytes),
  /// at most `limit` bytes in all.
  func readTree(_ name: String, limit: Int) throws(SandboxError) -> [(String, Data)]
}

/// A box whose /box is a host directory (`Box`, `WarmBox`): outputs are read from it, never
/// through a link the program planted.
public protocol HostDirectoryEnvironment: BoxEnvironment {
  var directory: BoxDirectory { get }
}

extension HostDirectoryEnvironment {
  public func readFile(_ name: String, limit: Int) throws(SandboxError) -> Data {
    try directory.read(name: name, limit: limit)
  }

  public func readTree(_ name: String, limit: Int) throws(SandboxError) -> [(String, Data)] {
    try directory.readTree(name: name, limit: limit)
  }
}

/// Where environments come from and go back to.
public protocol BoxEnvironmentPool: Sendable {
  associatedtype Environment: BoxEnvironment
  /// An environment with this layout, ready for one command within `limits`.
  func get(layout: BoxLayout, limits: BoxLimits) throws(SandboxError) -> Environment
  /// Takes an environment back after its command: kept for reuse only when it is proven as fresh
  /// as a new one, else destroyed.
  func put(_ environment: Environment)
  /// Destroys every idle environment.
  func drain()
  /// How many environments are worth using at once (a grade's tests in parallel).
  var parallelism: Int { get }
  /// Environments destroyed instead of reused, per reason (one may count under several).
  var discardCounts: [BoxDiscardReason: UInt64] { get }
}

extension BoxEnvironmentPool {
  /// Runs `body` with an environment of this layout, ready for `limits`, and puts it back after
  /// (also when `body` throws).
  public func withBox<Result>(
    layout: BoxLayout, limits: BoxLimits, _ body: (Environment) throws(SandboxError) -> Result
  ) throws(SandboxError) -> Result {
    let environment = try get(layout: layout, limits: limits)
    defer { put(environment) }
    return try body(environment)
  }

  /// Runs one command in an environment of its spec's layout and limits and lets `finish` read
  /// what it left in /box before the environment is put back.
  public func run<Result>(
    _ command: BoxCommand, finish: (Outcome, any BoxEnvironment) throws(SandboxError) -> Result
  ) throws(SandboxError) -> Result {
    try withBox(layout: BoxLayout(command.spec), limits: command.spec.limits) { environment throws(SandboxError) in
      try finish(try environment.run(command), environment)
    }
  }
}

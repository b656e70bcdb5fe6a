import Foundation
import Sandbox

/// The command line: which config file, what to override, and whether only to check.
struct DaemonOptions {
  var configPath = DaemonConfiguration.defaultPath
  var configGiven = false
  var checkOnly = false
  var help = false
  var version = false
  /// Applied over the file's values, in order.
  var overrides: [(inout DaemonConfiguration) -> Void] = []
  var listenFlags: [String] = []

  static let usage = """
    usage: dsa-rund [--config PATH] [--check-config] [--version] [--listen HOST:PORT]... [--unix PATH]
                    [--slots N] [--queue-length N] [--work-root PATH] [--cache-dir PATH]
                    [--cgroup-mode auto|cgroup-v2|cgroup-v1|rlimit] [--drain-seconds S] [--state-dir PATH]

      --config PATH      the JSON config file (default \(DaemonConfiguration.defaultPath); a missing
                         default file means the defaults, a missing given file is an error)
      --check-config     validate the config and every runners/, policies/ and challenges/ file, print one line per
                         problem, exit 0 (valid) or 1; runs nothing
      --version          print the version and the build (the executable's GNU build ID), exit 0
      --listen HOST:PORT listen on TCP (repeatable; replaces the file's "listen"; port 0 picks one,
                         shown in the startup log line)
      --unix PATH        listen on a Unix socket (replaces the file's "unix_socket")
      --no-tcp           listen on no TCP address (with --unix)
      --slots N          box slots; --queue-length N requests waiting; --work-root, --cache-dir,
                         --cgroup-mode and --drain-seconds override the file's values too
      --state-dir PATH   where the submission store's SQLite file lives (submissions.state_dir)
    See docs/api.md for every option.
    """

  static func parse(_ arguments: [String]) throws(UsageError) -> DaemonOptions {
    var options = DaemonOptions()
    var index = 0
    func value(_ flag: String) throws(UsageError) -> String {
      index += 1
      guard index < arguments.count else { throw UsageError("\(flag) needs a value") }
      return arguments[index]
    }
    func count(_ flag: String, minimum: Int) throws(UsageError) -> Int {
      let text = try value(flag)
      guard let number = Int(text), number >= minimum else {
        throw UsageError("\(flag) needs a whole number of at least \(minimum), got \"\(text)\"")
      }
      return number
    }
    var listenFlags: [String]?
    var noTCP = false
    while index < arguments.count {
      let flag = arguments[index]
      switch flag {
      case "--config":
        options.configPath = try value(flag)
        options.configGiven = true
      case "--check-config": options.checkOnly = true
      case "--help", "-h": options.help = true
      case "--version": options.version = true
      case "--listen": listenFlags = (listenFlags ?? []) + [try value(flag)]
      case "--no-tcp": noTCP = true
      case "--unix":
        let path = try value(flag)
        options.overrides.append { $0.unixSocket = path }
      case "--slots":
        let slots = try count(flag, minimum: 1)
        options.overrides.append { $0.slots = slots }
      case "--queue-length":
        let length = try count(flag, minimum: 0)
        options.overrides.append { $0.queueLength = length }
      case "--work-root":
        let path = try value(flag)
        options.overrides.append { $0.workRoot = path }
      case "--cache-dir":
        let path = try value(flag)
        options.overrides.append { $0.cacheDirectory = path }
      case "--state-dir":
        let path = try value(flag)
        options.overrides.append { $0.submissions.stateDirectory = path }
      case "--cgroup-mode":
        let text = try value(flag)
        var problems: [String] = []
        let mode = DaemonConfiguration.cgroupMode(text, problems: &problems)
        if let problem = problems.first { throw UsageError("--cgroup-mode: \(problem)") }
        options.overrides.append { $0.cgroupMode = mode }
      case "--drain-seconds":
        let text = try value(flag)
        guard let seconds = Double(text), seconds >= 0 else {
          throw UsageError("--drain-seconds needs a number of seconds, got \"\(text)\"")
        }
        options.overrides.append { $0.drainSeconds = seconds }
      default:
        throw UsageError("unknown option \"\(flag)\" (see dsa-rund --help)")
      }
      index += 1
    }
    if noTCP {
      // Which one was meant cannot be guessed, and listening where --no-tcp was asked is the worse guess.
      if let listenFlags, !listenFlags.isEmpty {
        throw UsageError("--no-tcp and --listen \(listenFlags[0]) contradict each other; give one of them")
      }
      listenFlags = []
    }
    if let listenFlags {
      options.listenFlags = listenFlags
      options.overrides.append { $0.listen = listenFlags }
    }
    return options
  }

  /// The file's values (or the defaults) with the flags laid over them, and every problem found.
  func loadConfiguration() -> (DaemonConfiguration, [String]) {
    var configuration = DaemonConfiguration()
    var problems: [String] = []
    if let data = FileManager.default.contents(atPath: configPath) {
      let (parsed, fileProblems) = DaemonConfiguration.parse(data)
      configuration = parsed
      problems += fileProblems.map { "\(configPath): \($0)" }
    } else if configGiven || FileManager.default.fileExists(atPath: configPath) {
      problems.append("\(configPath): cannot read the config file (\(String(cString: strerror(errno))))")
    }
    for override in overrides { override(&configuration) }
    problems += configuration.problems()
    return (configuration, problems)
  }
}

struct UsageError: Error {
  let message: String
  init(_ message: String) { self.message = message }
}

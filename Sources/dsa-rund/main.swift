import Foundation
import Glibc
import Sandbox
import SystemCore

// dsa-rund: the dsa-run HTTP daemon (docs/api.md). Before anything starts a thread, SIGTERM,
// SIGINT and SIGHUP are blocked so that every thread inherits the mask and only the signal source sees them.
blockTerminationSignals()

let options: DaemonOptions
do {
  options = try DaemonOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
  FileHandle.standardError.write(Data("dsa-rund: \(error.message)\n".utf8))
  exit(2)
}
if options.help {
  print(DaemonOptions.usage)
  exit(0)
}
if options.version {
  print("dsa-rund \(BuildIdentity.description)")
  exit(0)
}
if options.checkOnly { checkConfiguration(options) }

if let problem = BoxLimits.timeScaleProblem {
  FileHandle.standardError.write(Data("dsa-rund: \(problem)\n".utf8))
  exit(2)
}
let (configuration, problems) = options.loadConfiguration()
if !problems.isEmpty {
  for problem in problems { logLine("error", ["message": "config: \(problem)"]) }
  exit(1)
}
var sandboxConfiguration = configuration.sandboxConfiguration
// The config (its bearer tokens) is hidden from boxes wherever it lives, like the data folders.
sandboxConfiguration.hiddenPaths.append(options.configPath)
runDaemon(configuration, options: options, sandbox: sandboxConfiguration)

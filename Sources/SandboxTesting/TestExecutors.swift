import Foundation
import Runners
import Sandbox
import Synchronization

/// The executors the test suites share: the shipped runners and policies over real warm boxes,
/// or over a `FakeEnvironmentPool` for the tests that need no kernel (and no root).
public enum TestExecutors {
  /// The repository's root, found from this file's path.
  public static let repositoryRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
  }()

  /// An executor on warm boxes (as the daemon runs them) under its own work root, with a compile
  /// cache in the temporary directory; its idle boxes and its cache are removed at exit.
  public static func warm(workRoot: String, name: String, cgroupMode: CgroupMode? = nil) -> Executor {
    do {
      var configuration = SandboxConfiguration(workRoot: workRoot)
      if let cgroupMode { configuration.cgroupMode = cgroupMode }
      let host = try SandboxHost(configuration: configuration)
      let cacheDirectory = NSTemporaryDirectory() + "dsa-run-\(name)-tests-cache-\(getpid())"
      let executor = Executor(
        environments: BoxPool(host: host), catalog: try catalog(), policies: try policies(),
        cache: try CompileCache(directory: cacheDirectory))
      cleanUpAtExit(executor, cacheDirectory: cacheDirectory)
      return executor
    } catch {
      fatalError("cannot set up the \(name) tests: \(error)")
    }
  }

  /// An executor on one-shot boxes (as the CLI runs them) under its own work root, with a compile
  /// cache in the temporary directory, removed at exit.
  public static func oneShot(workRoot: String, name: String) -> Executor {
    do {
      let host = try SandboxHost(configuration: SandboxConfiguration(workRoot: workRoot))
      let cacheDirectory = NSTemporaryDirectory() + "dsa-run-\(name)-tests-cache-\(getpid())"
      let executor = Executor(
        environments: OneShotBoxes(host: host), catalog: try catalog(), policies: try policies(),
        cache: try CompileCache(directory: cacheDirectory))
      cleanUpAtExit(executor, cacheDirectory: cacheDirectory)
      return executor
    } catch {
      fatalError("cannot set up the \(name) tests: \(error)")
    }
  }

  /// An executor whose boxes are `pool`'s fakes: no compile cache, and the runners' declared
  /// versions (probing would start the toolchains).
  public static func fake(_ pool: FakeEnvironmentPool) -> Executor {
    do {
      return Executor(
        environments: pool, catalog: try catalog(), policies: try policies(), cache: nil, probesVersions: false)
    } catch {
      fatalError("cannot set up a fake executor: \(error)")
    }
  }

  private static func catalog() throws -> RunnerCatalog {
    try RunnerCatalog.load(directory: repositoryRoot + "/runners")
  }

  /// Compiled once per process: libseccomp needs no privilege, but it takes a while.
  private static func policies() throws -> [String: SeccompPolicy] {
    try compiledPolicies.get()
  }

  private static let compiledPolicies = Result { try SeccompCompiler.loadDirectory(repositoryRoot + "/policies") }

  private static let cleanUps = Mutex<[(Executor, String)]>([])

  private static func cleanUpAtExit(_ executor: Executor, cacheDirectory: String) {
    let first = cleanUps.withLock { list in
      list.append((executor, cacheDirectory))
      return list.count == 1
    }
    guard first else { return }
    atexit {
      for (executor, cacheDirectory) in TestExecutors.cleanUps.withLock({ $0 }) {
        executor.environments.drain()
        try? FileManager.default.removeItem(atPath: cacheDirectory)
      }
    }
  }
}

// swift-tools-version:6.0
import Foundation
import PackageDescription

let strictSwift: [SwiftSetting] = [.unsafeFlags(["-warnings-as-errors"])]
// The JSON reader, the function values and the challenge loader are optimized in debug builds too:
// every daemon a test starts reads the whole challenge catalogue (tens of megabytes of test
// arguments and expected steps), 10x slower unoptimized.
let optimizedEvenInDebug: [SwiftSetting] = strictSwift + [.unsafeFlags(["-O"], .when(configuration: .debug))]

// Linux only (namespaces, seccomp, cgroups, pidfds): SwiftPM cannot say so, so no platform is claimed.
let package = Package(
  name: "dsa-run",
  products: [
    .executable(name: "dsa-run", targets: ["dsa-run"]),
    .library(name: "Sandbox", targets: ["Sandbox"]),
    // For the fuzz targets (Fuzz/Package.swift), which depend on this package by path.
    .library(name: "HTTP", targets: ["HTTP"]),
    .library(name: "API", targets: ["API"]),
    .library(name: "Runners", targets: ["Runners"]),
    .library(name: "Grading", targets: ["Grading"]),
    .library(name: "Challenges", targets: ["Challenges"]),
    .library(name: "Wire", targets: ["Wire"]),
  ],
  targets: [
    // The only code between clone() and execve(): allocation-free C.
    .target(
      name: "CSandbox",
      cSettings: [.unsafeFlags(["-Wall", "-Wextra", "-Werror", "-O2"])]
    ),
    // libseccomp (Debian libseccomp-dev), used in the parent only to compile
    // policies to BPF once.
    .systemLibrary(
      name: "CSeccomp",
      pkgConfig: "libseccomp",
      providers: [.apt(["libseccomp-dev"])]
    ),
    // posix_spawn's closefrom action (glibc 2.34), declared only under _GNU_SOURCE: ChildProcess.
    .systemLibrary(name: "CSpawn"),
    // What HTTP and Sandbox share at the bottom: errno names, systemCall, owned descriptors,
    // monotonic time.
    .target(name: "SystemCore", dependencies: ["CCrypto", "CSpawn"], swiftSettings: strictSwift),
    .target(
      name: "Sandbox",
      dependencies: ["CSandbox", "CSeccomp", "SystemCore", "Wire"],
      swiftSettings: strictSwift
    ),
    // Languages: runners/*.json, compile -> run, the compile cache.
    .target(
      name: "Runners",
      dependencies: ["Sandbox", "SystemCore", "Grading", "Wire"],
      swiftSettings: strictSwift
    ),
    // Test support: the fake box environment and the executors the suites share. Only test
    // targets depend on it.
    .target(name: "SandboxTesting", dependencies: ["Runners", "Sandbox"], swiftSettings: strictSwift),
    .executableTarget(
      name: "dsa-run",
      dependencies: ["Sandbox", "Runners", "Challenges", "Grading", "SystemCore", "Wire"],
      swiftSettings: strictSwift,
      // Released as one static, non-PIE executable: the dynamic loader (binding symbols in seven
      // libraries, 73,000 relative relocations dirtying the Swift metadata pages) was two thirds of
      // a `dsa-run --help`. Debug builds stay dynamic: the test bundles link this target's objects.
      // Only where the Swift runtime and Foundation are linked in as well (scripts/install and
      // Benchmarks/run-cli-bench set DSA_RUN_STATIC_CLI=1 with --static-swift-stdlib): without their
      // static libraries a fully static link cannot resolve Foundation's ICU symbols, and a plain
      // `swift build -c release` must keep working.
      linkerSettings: ProcessInfo.processInfo.environment["DSA_RUN_STATIC_CLI"] == "1"
        ? [.unsafeFlags(["-static-executable"], .when(configuration: .release))] : []
    ),
    .target(name: "BenchSupport", path: "Benchmarks/BenchSupport", swiftSettings: strictSwift),
    .executableTarget(
      name: "dsa-run-bench",
      dependencies: ["BenchSupport", "Sandbox"],
      path: "Benchmarks/BoxBench",
      swiftSettings: strictSwift
    ),
    .executableTarget(
      name: "dsa-run-langbench",
      dependencies: ["BenchSupport", "Runners", "Sandbox"],
      path: "Benchmarks/LanguageBench",
      swiftSettings: strictSwift
    ),
    .executableTarget(
      name: "dsa-run-gradebench",
      dependencies: ["BenchSupport", "Challenges", "Grading", "Runners", "Sandbox", "Wire"],
      path: "Benchmarks/GradeBench",
      swiftSettings: strictSwift
    ),
    .executableTarget(
      name: "dsa-run-loadbench",
      dependencies: ["BenchSupport", "Runners", "Sandbox"],
      path: "Benchmarks/LoadBench",
      swiftSettings: strictSwift
    ),
    .executableTarget(
      name: "dsa-run-livebench",
      dependencies: ["BenchSupport", "Runners", "Sandbox"],
      path: "Benchmarks/LiveBench",
      swiftSettings: strictSwift
    ),
    // wslay (Debian libwslay-dev, which has no .pc file): WebSocket framing without I/O of its own.
    .systemLibrary(name: "CWslay", providers: [.apt(["libwslay-dev"])]),
    // libcrypto (Debian libssl-dev), for SystemCore's digests: SHA-1, SHA-256, HMAC-SHA256, base64.
    .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
    .target(name: "HTTP", dependencies: ["CWslay", "SystemCore"], swiftSettings: strictSwift),
    // Stored submissions (docs/api.md "Submissions"): the store seam, SQLite and PostgreSQL, the workers.
    .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
    // libpq, loaded only when a PostgreSQL store is opened (headers from libpq-dev).
    .target(name: "CPostgres"),
    .systemLibrary(name: "CRandom"),
    // Judge0's additional_files zips (Sources/API/Judge0Zip.swift): raw inflate.
    .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
    .target(
      name: "Submissions", dependencies: ["CSQLite", "CPostgres", "SystemCore", "CRandom"], swiftSettings: strictSwift),
    .testTarget(name: "SubmissionsTests", dependencies: ["Submissions", "SystemCore"], swiftSettings: strictSwift),
    .target(
      name: "API",
      dependencies: [
        "Challenges", "Grading", "Runners", "Sandbox", "HTTP", "Submissions", "SystemCore", "Wire", "CZlib",
      ],
      swiftSettings: strictSwift),
    .executableTarget(
      name: "dsa-rund",
      dependencies: ["API", "Challenges", "HTTP", "Runners", "Sandbox", "Submissions", "SystemCore", "Wire"],
      swiftSettings: strictSwift
    ),
    .testTarget(
      name: "DaemonTests",
      // dsa-rund is built too: the tests start it, talk to it with curl and Python, and signal it.
      dependencies: [
        "API", "Challenges", "HTTP", "Runners", "Sandbox", "SandboxTesting", "Submissions", "SystemCore", "Wire",
        "dsa-rund",
      ],
      swiftSettings: strictSwift
    ),
    .testTarget(
      name: "APITests",
      dependencies: ["API", "Grading", "Runners", "Sandbox", "SandboxTesting", "HTTP", "Submissions", "Wire"],
      swiftSettings: strictSwift),
    .testTarget(name: "HTTPTests", dependencies: ["HTTP", "SandboxTesting", "SystemCore"], swiftSettings: strictSwift),
    // The wire formats: JSONValue, the one strict reader, the /v1 request and result types.
    .target(name: "Wire", swiftSettings: optimizedEvenInDebug),
    .testTarget(name: "WireTests", dependencies: ["Wire"], resources: [.copy("golden")], swiftSettings: strictSwift),
    .target(name: "Grading", dependencies: ["Wire"], swiftSettings: optimizedEvenInDebug),
    .testTarget(name: "GradingTests", dependencies: ["Grading", "Wire"], swiftSettings: strictSwift),
    // Challenge files, the custom checker program and the grading pipeline.
    .target(
      name: "Challenges", dependencies: ["Grading", "Runners", "Sandbox", "SystemCore", "Wire"],
      swiftSettings: optimizedEvenInDebug),
    .testTarget(
      name: "ChallengesTests",
      // dsa-run is built too: the tests grade through its CLI.
      dependencies: [
        "API", "Challenges", "Grading", "Runners", "Sandbox", "SandboxTesting", "SystemCore", "Wire", "dsa-run",
      ],
      swiftSettings: strictSwift
    ),
    .testTarget(
      name: "SandboxTests",
      // dsa-run is built too: the tests kill it mid-run and run its CLI.
      dependencies: ["Sandbox", "SandboxTesting", "SystemCore", "dsa-run"],
      swiftSettings: strictSwift
    ),
    // Pure: no root, no kernel facility beyond pipes and child processes.
    .testTarget(name: "SystemCoreTests", dependencies: ["SystemCore"], swiftSettings: strictSwift),
    // Pure: docs/architecture.md's module table against the import lines and this file.
    .testTarget(name: "ArchitectureTests", swiftSettings: strictSwift),
    // Live runs on real boxes and the interactive CLI under a real pseudo-terminal.
    .testTarget(
      name: "LiveTests", dependencies: ["Grading", "Runners", "Sandbox", "SandboxTesting", "SystemCore", "dsa-run"],
      exclude: ["Scripts"],
      swiftSettings: strictSwift),
    .testTarget(
      name: "RunnersTests",
      dependencies: ["Runners", "Sandbox", "SandboxTesting", "SystemCore", "dsa-run"],
      swiftSettings: strictSwift
    ),
  ]
)

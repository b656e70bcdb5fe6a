// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets for dsa-run's parsers and loaders. A package of its own, so `swift build` and
// `swift test` of dsa-run never see them: scripts/fuzz builds them into .build-fuzz with
// `--sanitize fuzzer -Xswiftc -sanitize=fuzzer,address` (see docs/security.md, "Fuzzing").
//
// Each target defines `LLVMFuzzerTestOneInput` and no `main` (libFuzzer's is linked in), which is
// why every target is compiled with -parse-as-library.
let fuzzTarget: [SwiftSetting] = [.unsafeFlags(["-parse-as-library", "-warnings-as-errors"])]

let package = Package(
  name: "dsa-run-fuzz",
  dependencies: [.package(name: "dsa-run", path: "..")],
  targets: [
    .target(name: "FuzzSupport", swiftSettings: [.unsafeFlags(["-warnings-as-errors"])]),
    .executableTarget(
      name: "fuzz-http-parser",
      dependencies: ["FuzzSupport", .product(name: "HTTP", package: "dsa-run")],
      swiftSettings: fuzzTarget
    ),
    .executableTarget(
      name: "fuzz-websocket",
      dependencies: ["FuzzSupport", .product(name: "HTTP", package: "dsa-run")],
      swiftSettings: fuzzTarget
    ),
    .executableTarget(
      name: "fuzz-execute-body",
      dependencies: [
        "FuzzSupport", .product(name: "API", package: "dsa-run"), .product(name: "Runners", package: "dsa-run"),
        .product(name: "Sandbox", package: "dsa-run"), .product(name: "Wire", package: "dsa-run"),
      ],
      swiftSettings: fuzzTarget
    ),
    .executableTarget(
      name: "fuzz-step-lines",
      dependencies: [
        "FuzzSupport", .product(name: "Grading", package: "dsa-run"), .product(name: "Runners", package: "dsa-run"),
        .product(name: "Wire", package: "dsa-run"),
      ],
      swiftSettings: fuzzTarget
    ),
    .executableTarget(
      name: "fuzz-runner-file",
      dependencies: [
        "FuzzSupport", .product(name: "Runners", package: "dsa-run"), .product(name: "Sandbox", package: "dsa-run"),
      ],
      swiftSettings: fuzzTarget
    ),
    .executableTarget(
      name: "fuzz-challenge",
      dependencies: [
        "FuzzSupport", .product(name: "Challenges", package: "dsa-run"), .product(name: "Runners", package: "dsa-run"),
        .product(name: "Sandbox", package: "dsa-run"),
      ],
      swiftSettings: fuzzTarget
    ),
    .executableTarget(
      name: "fuzz-policy-file",
      dependencies: ["FuzzSupport", .product(name: "Sandbox", package: "dsa-run")],
      swiftSettings: fuzzTarget
    ),
  ]
)

import Foundation
import Testing

@testable import SystemCore

@Suite struct BuildIdentityTests {
  /// The build is the running executable's GNU build ID, as readelf reads it from the file.
  @Test func theBuildIsTheExecutablesBuildID() throws {
    let build = BuildIdentity.build
    #expect(build.count == 40 && build.allSatisfy(\.isHexDigit), "\(build)")
    try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/readelf"), "readelf is not installed")
    let readelf = ChildProcess()
    readelf.executableURL = URL(fileURLWithPath: "/usr/bin/readelf")
    readelf.arguments = ["-n", "/proc/self/exe".resolvedExecutable]
    let output = ProcessLaunch.pipe()
    readelf.standardOutput = output
    try readelf.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    readelf.waitUntilExit()
    #expect(text.contains("Build ID: \(build)\n"), "\(text)")
    #expect(BuildIdentity.description == "\(BuildIdentity.version) (build \(build))")
  }
}

extension String {
  /// What a /proc link points at.
  fileprivate var resolvedExecutable: String {
    (try? FileManager.default.destinationOfSymbolicLink(atPath: self)) ?? self
  }
}

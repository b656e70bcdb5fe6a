import Runners

extension LiveInput {
  func pauseOutput() {}
  func resumeOutput() {}
}

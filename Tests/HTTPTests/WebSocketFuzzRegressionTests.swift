import Foundation
import Testing

@testable import HTTP

@Suite struct WebSocketFuzzRegressionTests {
  // Tests/fuzz/websocket/regressions/crash-67fbab7b…: a text frame, a binary frame, then a close
  // frame (code 0x3412 is 13330, a code nobody may send) fed whole and byte by byte.
  @Test func regressionWholeAndBytewiseAgree() {
    let stream = Array(Data(base64Encoded: "AIGGN/ohPV85iFFblYKCN/ohPTcFiIU3+iE9NBI3+lI=")!.dropFirst())
    let whole = WebSocketFrameMachine().feed(stream)
    let bytewise = WebSocketFrameMachine()
    let events = stream.flatMap { bytewise.feed([$0]) }
    #expect(events == whole)
  }
}

import Foundation
import Testing

@testable import HTTP

@Suite struct WebSocketFuzzRegressionTests {
  // Tests/fuzz/websocket/regressions/crash-67fbab7b…: a text frame, a binary frame, then a close
  // frame (code 1000 with a reason that is not UTF-8) fed whole and byte by byte.
  @Test func regressionWholeAndBytewiseAgree() {
    let stream = Array(Data(base64Encoded: "AIGGN/ohPV85iFFblYKCN/ohPTcFiIU3+iE9NBI3+lI=")!.dropFirst())
    let whole = WebSocketFrameMachine()
    let wholeEvents = whole.feed(stream)
    let bytewise = WebSocketFrameMachine()
    let events = stream.flatMap { bytewise.feed([$0]) }
    #expect(events == wholeEvents)
    #expect(drainOutput(bytewise) == drainOutput(whole))
  }

  // The open case of docs/security.md's fuzzing table: a text, a binary and a close frame whose code
  // (64055) and reason (a 0xFA byte) are both wrong, then bytes after it. Fed whole it was 1007
  // (wslay's reason check), byte by byte 1002 (ours, the code first).
  @Test func aCloseWrongInCodeAndReasonIsTheSameWholeAndBytewise() {
    let stream = Array(Data(base64Encoded: "AIGGN/ohPV85iFFblYKCN/ohPTcFiIX6NyENAAAAAAAAAD00EkNEUg==")!.dropFirst())
    let whole = WebSocketFrameMachine()
    let wholeEvents = whole.feed(stream)
    let bytewise = WebSocketFrameMachine()
    let events = stream.flatMap { bytewise.feed([$0]) }
    #expect(events == wholeEvents)
    #expect(wholeEvents.last == .failed(code: WebSocketCloseCode.invalidPayload, reason: WebSocketFrameMachine.notUTF8))
    #expect(drainOutput(bytewise) == drainOutput(whole))
  }
}

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

  // Tests/fuzz/websocket/regressions/declared-length-0637fa213d5f3488: a text frame declaring
  // 0x0637fa213d5f3488 bytes. Our header check failed it with 1009, and wslay (buffering) then
  // malloc'ed the whole declared length; under AddressSanitizer that aborted the fuzzer.
  @Test func aFrameDeclaringAHugeLengthIs1009WholeAndBytewise() {
    let stream = Array(
      Data(base64Encoded: "AIH/Bjf6IT1fNIhRW5WCgjf6Lj03xcXFxQWIhTf6IT00Ev//Q0RS//8i//////9d")!.dropFirst())
    let whole = WebSocketFrameMachine()
    let wholeEvents = whole.feed(stream)
    let bytewise = WebSocketFrameMachine()
    let events = stream.flatMap { bytewise.feed([$0]) }
    #expect(events == wholeEvents)
    #expect(wholeEvents.count == 1)
    if case .failed(let code, _) = wholeEvents.last {
      #expect(code == WebSocketCloseCode.messageTooBig)
    } else {
      Issue.record("no failure: \(wholeEvents)")
    }
    #expect(drainOutput(bytewise) == drainOutput(whole))
  }

  // The same without a sanitizer: a refused header of a 1 GiB frame (an allocation that succeeds,
  // mapped and untouched) must not make the process map 1 GiB more while the connection lives.
  @Test func aRefusedFrameHeaderAllocatesNothingOfItsDeclaredLength() {
    let declared = 1 << 30
    var header: [UInt8] = [0x82, 0x80 | 127]
    header += (0..<8).reversed().map { UInt8((declared >> ($0 * 8)) & 0xff) }
    header += [0x37, 0xfa, 0x21, 0x3d]
    let before = virtualMemoryBytes()
    let machine = WebSocketFrameMachine()
    let events = machine.feed(header + Array(repeating: 0x41, count: 100))
    let held = virtualMemoryBytes()
    #expect(events.count == 1 && machine.closeCode == WebSocketCloseCode.messageTooBig, "\(events)")
    // Other tests allocate meanwhile, but not half a gibibyte at once.
    #expect(held < before + declared / 2, "\(held - before) bytes mapped after a refused header")
    withExtendedLifetime(machine) {}
  }

  // Messages are reassembled here now that wslay does not buffer them: fragments with a ping
  // between are one message, and the next message starts empty.
  @Test func fragmentedMessagesAreReassembledAndTheNextStartsEmpty() {
    let machine = WebSocketFrameMachine()
    let stream =
      clientFrame(opcode: 0x1, payload: Array("frag".utf8), final: false)
      + clientFrame(opcode: 0x9, payload: Array("p".utf8))
      + clientFrame(opcode: 0x0, payload: Array("ment".utf8), final: false)
      + clientFrame(opcode: 0x0, payload: Array("éd".utf8))
      + clientFrame(opcode: 0x2, payload: [0, 255])
    #expect(
      machine.feed(stream) == [
        .ping(Data("p".utf8)), .message(.text("fragmentéd")), .message(.binary(Data([0, 255]))),
      ])
  }

  // Tests/fuzz/websocket/regressions/crash-7b5c7483…: a binary frame, then the start of a close
  // frame (71 bytes declared, 11 sent) whose code is 47107 and whose reason breaks UTF-8 at its
  // second byte. wslay checks a close reason in every piece it reads from the third byte of that
  // piece on: read whole it found the bad byte (1007), read byte by byte it never looked.
  @Test func aCloseCutShortIsTheSameWholeAndBytewise() {
    let stream = Array(Data(base64Encoded: "PQCBhjf6IT1fOYhRW5WCgjf6IYGBBYjHhTf6IT00EgAAAABD9URS")!.dropFirst(14))
    let whole = WebSocketFrameMachine()
    let wholeEvents = whole.feed(stream)
    let bytewise = WebSocketFrameMachine()
    let events = stream.flatMap { bytewise.feed([$0]) }
    #expect(events == wholeEvents)
    // The close frame is not all here, so it is not judged yet.
    #expect(wholeEvents == [.message(.binary(Data([0xb6, 0xff])))])
    #expect(drainOutput(bytewise) == drainOutput(whole))
  }

  // The same flaw, on a valid close: a reason "é" split after its first byte was a spurious 1007
  // (wslay skipped the second piece's first two bytes and ended the frame mid-character).
  @Test(arguments: 1..<12)
  func aValidCloseSplitAnywhereIsTheSameAsWhole(split: Int) {
    let frame = clientFrame(opcode: 0x8, payload: closePayload(1000, Array("é!".utf8)))
    let whole = WebSocketFrameMachine()
    let wholeEvents = whole.feed(frame)
    #expect(wholeEvents == [.peerClosed(code: 1000, reason: "é!")])
    let pieces = WebSocketFrameMachine()
    let events = pieces.feed(frame[..<split]) + pieces.feed(frame[split...])
    #expect(events == wholeEvents, "split after \(split) bytes")
    #expect(drainOutput(pieces) == drainOutput(whole))
  }

  // A fragment that takes a message past its bound is refused at its header: read whole, wslay's
  // UTF-8 check of the piece would otherwise find a bad byte past the bound (1007) before ours
  // counted the bytes (1009, byte by byte).
  @Test func aFragmentCrossingTheMessageBoundIs1009WholeAndBytewise() {
    let limits = WebSocketFrameMachine.Limits(maximumFrameBytes: 64, maximumMessageBytes: 100)
    let stream =
      clientFrame(opcode: 0x1, payload: [UInt8](repeating: 0x61, count: 60), final: false)
      + clientFrame(opcode: 0x0, payload: [UInt8](repeating: 0x61, count: 50) + [0xff])
    let whole = WebSocketFrameMachine(limits: limits)
    let wholeEvents = whole.feed(stream)
    let bytewise = WebSocketFrameMachine(limits: limits)
    let events = stream.flatMap { bytewise.feed([$0]) }
    #expect(events == wholeEvents)
    guard case .failed(let code, _) = wholeEvents.last else {
      Issue.record("no failure: \(wholeEvents)")
      return
    }
    #expect(code == WebSocketCloseCode.messageTooBig)
  }

  // Tests/fuzz/websocket/regressions/crash-1d319c10…, with the small limits (64-byte frames): a text
  // frame, a ping, then a 73-byte text frame whose fourth byte breaks UTF-8. Our 1009 at its header
  // waited behind the queued pong, so read whole wslay's UTF-8 check of the same piece queued its
  // 1007 first; read byte by byte the pong and our 1009 went out. Now a failure's close is queued
  // at once (and, a close being queued, wslay drops the pong).
  @Test func regressionSmallLimitsOutputIsTheSameWholeAndBytewise() {
    let input = Array(Data(base64Encoded: "hAANgIGBgYGFgYGBiYGBgYGAgYHJf3p+fn52foKBgeR7RgAAAFNldAAAAAAAAAAAAAAAAA==")!)
    let stream = Array(input.dropFirst(5))
    let limits = WebSocketFrameMachine.Limits(maximumFrameBytes: 64, maximumMessageBytes: 128)
    let whole = WebSocketFrameMachine(limits: limits)
    let wholeEvents = whole.feed(stream)
    let bytewise = WebSocketFrameMachine(limits: limits)
    let events = stream.flatMap { bytewise.feed([$0]) }
    #expect(events == wholeEvents)
    #expect(drainOutput(bytewise) == drainOutput(whole), "\(wholeEvents)")
  }
}

/// This process's mapped address space (VmSize), bytes: malloc maps a large block at once.
private func virtualMemoryBytes() -> Int {
  let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
  for line in status.split(separator: "\n") where line.hasPrefix("VmSize:") {
    return (Int(line.split(separator: " ")[1]) ?? 0) * 1024
  }
  return 0
}

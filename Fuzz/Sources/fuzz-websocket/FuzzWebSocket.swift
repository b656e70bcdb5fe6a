// Fuzzes WebSocketFrameMachine: a client's bytes fed whole, in fuzzer-chosen chunks and one byte at
// a time must give the same events and the same output, and a failure must be the last event.
//
// Input: byte 0 = flags (bit 7: small limits and a small output bound, so pings are held back;
// bits 0-3: how many chunk lengths follow), then that many chunk lengths (used in turn), then the
// client's bytes. After the last chunk, output is taken and held input fed until none is held.

import FuzzSupport
import HTTP

private let smallLimits = WebSocketFrameMachine.Limits(maximumFrameBytes: 64, maximumMessageBytes: 128)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebSocket(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  let input = fuzzInput(start, count)
  guard let flags = input.first else { return 0 }
  let small = flags & 0x80 != 0
  let limits = small ? smallLimits : WebSocketFrameMachine.Limits()
  let maximumUnsentBytes = small ? 512 : WebSocketFrameMachine.maximumUnsentBytes(queuedBytes: 1 << 20)
  let lengthCount = min(Int(flags & 0x0f), input.count - 1)
  let chunkLengths = input[1..<1 + lengthCount].map(Int.init)
  let bytes = Array(input[(1 + lengthCount)...])

  let whole = run(bytes, limits: limits, maximumUnsentBytes: maximumUnsentBytes, chunkLengths: [])
  for (index, event) in whole.events.enumerated() {
    if case .failed = event { invariant(index == whole.events.count - 1, "an event after a failure") }
  }
  let chunked = run(bytes, limits: limits, maximumUnsentBytes: maximumUnsentBytes, chunkLengths: chunkLengths)
  invariant(chunked.events == whole.events, "chunks \(chunkLengths) gave other events than one feed")
  invariant(chunked.output == whole.output, "chunks \(chunkLengths) gave other output than one feed")
  let bytewise = run(bytes, limits: limits, maximumUnsentBytes: maximumUnsentBytes, chunkLengths: [1])
  invariant(bytewise.events == whole.events, "one byte at a time gave other events than one feed")
  invariant(bytewise.output == whole.output, "one byte at a time gave other output than one feed")
  return 0
}

private func run(
  _ bytes: [UInt8], limits: WebSocketFrameMachine.Limits, maximumUnsentBytes: Int, chunkLengths: [Int]
) -> (events: [WebSocketFrameMachine.Event], output: [UInt8]) {
  let machine = WebSocketFrameMachine(limits: limits, maximumUnsentBytes: maximumUnsentBytes)
  var events: [WebSocketFrameMachine.Event] = []
  let lengths = chunkLengths.contains { $0 > 0 } ? chunkLengths : [max(bytes.count, 1)]
  var offset = 0
  var turn = 0
  while offset < bytes.count {
    let length = min(lengths[turn % lengths.count], bytes.count - offset)
    turn += 1
    events += machine.feed(bytes[offset..<offset + length])
    invariant(machine.unsentByteCount <= maximumUnsentBytes + 131 + 64, "pongs past the output bound")
    offset += length
  }
  var output: [UInt8] = []
  while true {
    let chunk = machine.takeOutput()
    output += chunk
    if machine.isWaitingForOutputRoom {
      events += machine.feedHeldInput()
      invariant(machine.unsentByteCount <= maximumUnsentBytes + 131 + 64, "pongs past the output bound")
      invariant(!chunk.isEmpty || !machine.isWaitingForOutputRoom, "input held with no output to take")
      continue
    }
    if chunk.isEmpty { break }
  }
  return (events, output)
}

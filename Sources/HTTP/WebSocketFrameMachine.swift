import CWslay
import Foundation

/// A WebSocket message: what a text or binary data frame sequence carries once reassembled.
public enum WebSocketMessage: Sendable, Equatable {
  /// A text message, checked to be UTF-8.
  case text(String)
  /// A binary message.
  case binary(Data)

  /// The payload's size in bytes.
  public var byteCount: Int {
    switch self {
    case .text(let text): return text.utf8.count
    case .binary(let data): return data.count
    }
  }
}

/// Close codes this server sends (RFC 6455 §7.4.1); any other valid code may come from the peer.
public enum WebSocketCloseCode {
  public static let normal: UInt16 = 1000
  /// The server is stopping, or the session was idle too long.
  public static let goingAway: UInt16 = 1001
  /// A frame broke RFC 6455 (unmasked, reserved bits or opcode, a fragmented or long control frame).
  public static let protocolError: UInt16 = 1002
  /// Sent by nobody: the peer's close frame had no code.
  public static let noStatus: UInt16 = 1005
  /// Sent by nobody: the connection ended without a close frame.
  public static let abnormal: UInt16 = 1006
  /// A text message, or a close reason, that is not UTF-8.
  public static let invalidPayload: UInt16 = 1007
  /// A message the application refuses (a bad request, a missing or wrong token).
  public static let policyViolation: UInt16 = 1008
  /// A frame or message over the limits.
  public static let messageTooBig: UInt16 = 1009
  public static let internalError: UInt16 = 1011
  /// The server is too busy for this session now ("try again later").
  public static let tryAgainLater: UInt16 = 1013
}

/// The server side of RFC 6455 framing as a state machine: bytes in, events and bytes out, no I/O
/// of its own (like `HTTPRequestParser`), so it is tested and fuzzed without sockets.
///
/// wslay's event API does the framing: unmasking, reassembly of fragments, control frames in
/// between, pong replies to pings, the close handshake and its codes. Its recv and send callbacks
/// read from and write to buffers here instead of a socket. What wslay does not do is done here:
/// UTF-8 checks of text messages and close reasons (incrementally, so a code point split across
/// fragments is fine and a bad byte fails at once), and the frame and message size limits, checked
/// at each frame's header, so the outcome never depends on how the input was split.
///
/// Data messages are reassembled here, not by wslay: buffering, wslay allocates a frame's whole
/// declared length when its header arrives (up to 2^63 bytes), before any of it is sent and after
/// our check of that length has refused it. Here a message grows only by the bytes that came, and
/// never past `maximumMessageBytes`. Control frames, at most 125 bytes, wslay still buffers.
///
/// wslay is handed a control frame only once all of it is here (`release`): its UTF-8 check of a
/// close reason skips the first two bytes of every piece of the frame it is given, not only of the
/// first, so a close split across reads was judged other than the same close read whole.
///
/// What waits to go to the peer is bounded (`maximumUnsentBytes`): wslay queues a pong for every
/// ping without limit, so a peer that pings and never reads grew it by hundreds of MB. A ping (or a
/// close, whose reply echoes it) is handed to wslay only while its answer fits; past that the
/// machine holds the peer's bytes back (`isWaitingForOutputRoom`), its user stops reading the
/// socket, and `feedHeldInput` goes on once output was taken.
///
/// Not thread-safe: one connection's thread owns it.
public final class WebSocketFrameMachine {
  /// Bounds on what a peer may send.
  public struct Limits: Sendable, Equatable {
    /// The largest frame payload accepted; a larger header is answered with close 1009 at once.
    public var maximumFrameBytes: Int
    /// The largest message (all fragments together); a fragment's header that would take the
    /// message past it is answered with close 1009 at once.
    public var maximumMessageBytes: Int

    /// 1 MiB frames, 16 MiB messages by default.
    public init(maximumFrameBytes: Int = 1 << 20, maximumMessageBytes: Int = 16 << 20) {
      self.maximumFrameBytes = maximumFrameBytes
      self.maximumMessageBytes = maximumMessageBytes
    }
  }

  /// What the peer's bytes meant, in order.
  public enum Event: Sendable, Equatable {
    case message(WebSocketMessage)
    /// A ping; the pong is already queued.
    case ping(Data)
    case pong(Data)
    /// The peer's close frame (code 1005 when it had none); the reply is queued.
    case peerClosed(code: UInt16, reason: String)
    /// The peer broke the protocol or a limit: a close with `code` is queued and no more input is read.
    case failed(code: UInt16, reason: String)
  }

  public let limits: Limits
  /// The one reason for every 1007, whichever check found it: wslay's own or ours, which see a
  /// frame in an order that depends on how the input was split.
  static let notUTF8 = "a text message or close reason is not UTF-8"
  /// The most output bytes held at once; wslay keeps the rest of its queued frames until taken.
  static let outputHighWater = 64 * 1024
  /// What wslay allocates for a queued message beyond its payload (its message record and queue
  /// link), counted so that a flood of empty pings is bounded too.
  static let queuedMessageOverhead = 64
  /// Room kept for control frames beyond a full output buffer and a full data queue.
  static let controlFrameRoom = 64 * 1024

  /// The bound on unsent output for a connection whose session queues at most `queuedBytes` of
  /// messages: a full output buffer, one message taken from that queue, and room for pongs.
  public static func maximumUnsentBytes(queuedBytes: Int) -> Int {
    outputHighWater + queuedBytes + controlFrameRoom
  }

  /// The most output (`unsentByteCount`) the peer's pings and close may make the machine hold; a
  /// message handed to `send` may take it past this, pongs and close replies never do.
  public let maximumUnsentBytes: Int

  private var context: wslay_event_context_ptr?
  /// The peer's bytes not yet taken by wslay: it may take those before `releasedEnd`, which is
  /// the end of a frame, or inside a data frame whose payload is still coming.
  private var held: [UInt8] = []
  private var handedOver = 0
  private var releasedEnd = 0
  /// Payload bytes of the data frame being released that have not arrived yet.
  private var dataFrameBytesLeft: UInt64 = 0
  /// A control header wslay refuses on its own (fragmented, or longer than 125): it gets the rest.
  private var releasesEverything = false
  private var output: [UInt8] = []
  private var events: [Event] = []
  private var failure: UInt16?
  private var peerCloseSeen = false

  // The frame being received.
  private var frameOpcode: UInt8 = 0
  private var frameIsFinal = false
  private var framePayload: [UInt8] = []  // close frames only: their reason is checked at the end
  // The data message being received.
  private var messageIsText = false
  private var messagePayload: [UInt8] = []
  private var utf8 = UTF8Validator()

  /// A machine for one connection, right after the 101.
  public init(
    limits: Limits = Limits(), maximumUnsentBytes: Int = WebSocketFrameMachine.maximumUnsentBytes(queuedBytes: 1 << 20)
  ) {
    self.limits = limits
    self.maximumUnsentBytes = maximumUnsentBytes
    var callbacks = wslay_event_callbacks(
      recv_callback: { _, buffer, length, _, user in
        machine(user).receive(into: buffer!, length: length)
      },
      send_callback: { _, data, length, _, user in
        machine(user).accept(output: data!, length: length)
      },
      genmask_callback: nil,
      on_frame_recv_start_callback: { _, argument, user in
        machine(user).frameStarted(argument!.pointee)
      },
      on_frame_recv_chunk_callback: { _, argument, user in
        machine(user).frameChunk(
          UnsafeBufferPointer(start: argument!.pointee.data, count: argument!.pointee.data_length))
      },
      on_frame_recv_end_callback: { _, user in
        machine(user).frameEnded()
      },
      on_msg_recv_callback: { _, argument, user in
        machine(user).messageReceived(argument!.pointee)
      })
    let result = wslay_event_context_server_init(&context, &callbacks, Unmanaged.passUnretained(self).toOpaque())
    precondition(result == 0 && context != nil, "wslay_event_context_server_init failed (out of memory)")
    // The size limits are checked here byte by byte; wslay's own check would fire at a point that
    // depends on how the input was split.
    wslay_event_config_set_max_recv_msg_length(context, UInt64.max)
    // wslay would allocate each data frame's declared length at its header (see the type's note).
    wslay_event_config_set_no_buffering(context, 1)
  }

  deinit { wslay_event_context_free(context) }

  /// Whether more input is wanted: false once the peer's close came or the connection failed.
  public var wantsInput: Bool { failure == nil && wslay_event_want_read(context) != 0 }

  /// Whether a close frame is queued or sent (ours or the reply to the peer's).
  public var isClosing: Bool {
    hasQueuedClose || failure != nil || peerCloseSeen || wslay_event_get_close_sent(context) != 0
  }
  private var hasQueuedClose = false

  /// Whether the connection is done: the close frame went out and either the peer's came or the
  /// connection failed; the socket may then be closed once `takeOutput()` is empty.
  public var isFinished: Bool {
    wslay_event_get_close_sent(context) != 0 && output.isEmpty && (failure != nil || peerCloseSeen)
  }

  /// The code of the close that ended the connection: the peer's, or ours when we failed it.
  public var closeCode: UInt16? {
    if let failure { return failure }
    return peerCloseSeen ? wslay_event_get_status_code_received(context) : nil
  }

  /// Payload bytes handed to `send` and not yet turned into output (about: frame headers count
  /// against it too). wslay's own queued-message count leaves out the message it is writing.
  public private(set) var queuedPayloadBytes = 0

  /// Output waiting to be taken, at most: the bytes ready and every frame wslay has queued
  /// (payload and `queuedMessageOverhead` each; a message part-way out counts whole). Once a close
  /// is queued wslay 1.1.1 sends nothing else and frees the pongs it held without counting them
  /// out, so they stay counted (never more than before the close).
  public var unsentByteCount: Int {
    output.count + wslay_event_get_queued_msg_length(context) + wslay_event_get_queued_msg_count(context)
      * Self.queuedMessageOverhead
  }

  /// Whether the peer's bytes are held back until output is taken: the next ping or close's
  /// answer would not fit within `maximumUnsentBytes`. Its user then reads nothing more from the
  /// peer (which must read to be heard again), and calls `feedHeldInput` after taking output.
  public private(set) var isWaitingForOutputRoom = false

  /// Reads `bytes` (the peer's, in order) and returns what they meant.
  public func feed(_ bytes: UnsafeBufferPointer<UInt8>) -> [Event] {
    guard wantsInput, !bytes.isEmpty || isWaitingForOutputRoom else { return [] }
    held.append(contentsOf: bytes)
    release()
    let result = wslay_event_recv(context)
    held.removeFirst(handedOver)
    releasedEnd -= handedOver
    handedOver = 0
    defer {
      // What follows a close or a failure is never read.
      if !wantsInput {
        held = []
        isWaitingForOutputRoom = false
      }
    }
    if result == WSLAY_ERR_NOMEM.rawValue {
      fail(WebSocketCloseCode.internalError, "the server ran out of memory reading the frame")
    } else if result != 0 {
      // Some violations (a fragmented or long control frame) come back as an error from wslay
      // rather than as a close it queues itself.
      fail(WebSocketCloseCode.protocolError, "the frames break RFC 6455")
    } else if failure == nil && !peerCloseSeen && wslay_event_get_read_enabled(context) == 0 {
      // wslay failed the connection itself and queued its close: 1002 for a protocol error, 1007
      // for a text payload its own check found not UTF-8. Its code is known once the frame is
      // written, and control frames go first, so write it now.
      if output.count < Self.outputHighWater { _ = wslay_event_send(context) }
      let sent = wslay_event_get_status_code_sent(context)
      let code = sent == WebSocketCloseCode.invalidPayload ? sent : WebSocketCloseCode.protocolError
      failure = code
      events.append(
        .failed(
          code: code,
          reason: code == WebSocketCloseCode.invalidPayload
            ? Self.notUTF8 : "the frames break RFC 6455"))
    }
    let new = events
    events = []
    return new
  }

  /// `feed` for any collection of bytes.
  public func feed(_ bytes: some Collection<UInt8>) -> [Event] {
    let array = Array(bytes)
    return array.withUnsafeBufferPointer { feed($0) }
  }

  /// Goes on with the peer's bytes held back for want of output room, as far as the room taken
  /// output made allows; nothing when none are held.
  public func feedHeldInput() -> [Event] {
    feed(UnsafeBufferPointer(start: nil, count: 0))
  }

  /// Queues a message; false once a close is queued (nothing more may be sent).
  @discardableResult
  public func send(_ message: WebSocketMessage) -> Bool {
    guard !isClosing else { return false }
    let bytes: [UInt8]
    let opcode: UInt8
    switch message {
    case .text(let text):
      bytes = Array(text.utf8)
      opcode = UInt8(WSLAY_TEXT_FRAME.rawValue)
    case .binary(let data):
      bytes = Array(data)
      opcode = UInt8(WSLAY_BINARY_FRAME.rawValue)
    }
    // wslay copies the payload, so the array may go.
    return bytes.withUnsafeBufferPointer { buffer in
      var message = wslay_event_msg(opcode: opcode, msg: buffer.baseAddress, msg_length: buffer.count)
      let queued = wslay_event_queue_msg(context, &message) == 0
      if queued { queuedPayloadBytes += buffer.count }
      return queued
    }
  }

  /// Queues a close frame with `code` and `reason` (cut to fit 123 bytes on a character boundary);
  /// false when one is already queued.
  @discardableResult
  public func close(code: UInt16 = WebSocketCloseCode.normal, reason: String = "") -> Bool {
    guard !isClosing else { return false }
    let reasonBytes = Self.closeReason(reason)
    hasQueuedClose = true
    // wslay sends control frames before queued data, and nothing after a close: so the close
    // waits until the messages queued before it are out.
    if wslay_event_get_queued_msg_count(context) == 0 {
      queueClose(code, reasonBytes)
    } else {
      pendingClose = (code, reasonBytes)
    }
    return true
  }

  private var pendingClose: (code: UInt16, reason: [UInt8])?

  /// Whether wslay has a close frame queued (ours, its reply to the peer's, or a failure's).
  private var closeIsQueuedInWslay: Bool { (hasQueuedClose && pendingClose == nil) || peerCloseSeen || failure != nil }

  /// `reason`'s bytes, cut to fit a close frame (125 bytes, 2 of them the code) on a character
  /// boundary.
  private static func closeReason(_ reason: String) -> [UInt8] {
    var bytes = Array(reason.utf8)
    while bytes.count > 123 {
      bytes.removeLast()
      while let last = bytes.last, last & 0xC0 == 0x80 { bytes.removeLast() }
      if let last = bytes.last, last >= 0xC0 { bytes.removeLast() }
    }
    return bytes
  }

  private func queueClose(_ code: UInt16, _ reason: [UInt8]) {
    _ = reason.withUnsafeBufferPointer { wslay_event_queue_close(context, code, $0.baseAddress, $0.count) }
  }

  /// The bytes to write now, at most about `outputHighWater`; call again after writing them, as
  /// queued frames come out in pieces.
  public func takeOutput() -> [UInt8] {
    if output.count < Self.outputHighWater && wslay_event_want_write(context) != 0 {
      // Errors here are only WOULDBLOCK (the buffer is full) or NOMEM; either way, try again later.
      _ = wslay_event_send(context)
    }
    if let pending = pendingClose, wslay_event_get_queued_msg_count(context) == 0 {
      pendingClose = nil
      queueClose(pending.code, pending.reason)
      if output.count < Self.outputHighWater { _ = wslay_event_send(context) }
    }
    let bytes = output
    output = []
    return bytes
  }

  /// Moves `releasedEnd` on over what wslay may read now: a data frame's bytes as they come, a
  /// control frame (at most 2 + 4 + 125 bytes) only whole, a frame header only whole, so it is
  /// read the same however the peer's bytes were split; a ping or close only while its answer fits
  /// in the output room (all of it when nothing is unsent, so a bound below one answer still lets
  /// one through), so the same bytes stop at the same frame however they were split.
  private func release() {
    isWaitingForOutputRoom = false
    var room = maximumUnsentBytes - unsentByteCount
    let roomWhenEmpty = maximumUnsentBytes
    while true {
      if releasesEverything {
        releasedEnd = held.count
        return
      }
      if dataFrameBytesLeft > 0 {
        let taken = min(UInt64(held.count - releasedEnd), dataFrameBytesLeft)
        releasedEnd += Int(taken)
        dataFrameBytesLeft -= taken
        if dataFrameBytesLeft > 0 { return }
      }
      let start = releasedEnd
      let available = held.count - start
      guard available >= 2 else { return }
      let isFinal = held[start] & 0x80 != 0
      let isControl = held[start] & 0x08 != 0
      let maskBytes = held[start + 1] & 0x80 != 0 ? 4 : 0
      let shortLength = Int(held[start + 1] & 0x7f)
      if isControl {
        guard shortLength <= 125, isFinal else {
          releasesEverything = true
          continue
        }
        guard available >= 2 + maskBytes + shortLength else { return }
        let opcode = UInt32(held[start] & 0x0f)
        // With a close queued in wslay, it answers nothing more: no pong, no second close.
        if !closeIsQueuedInWslay && (opcode == WSLAY_PING.rawValue || opcode == WSLAY_CONNECTION_CLOSE.rawValue) {
          let answer = shortLength + Self.queuedMessageOverhead
          if answer > room && room < roomWhenEmpty {
            isWaitingForOutputRoom = true
            return
          }
          room -= answer
        }
        releasedEnd += 2 + maskBytes + shortLength
        continue
      }
      let extendedBytes = shortLength == 126 ? 2 : (shortLength == 127 ? 8 : 0)
      let headerBytes = 2 + extendedBytes + maskBytes
      guard available >= headerBytes else { return }
      var payloadBytes = UInt64(shortLength)
      if extendedBytes > 0 {
        payloadBytes = held[(start + 2)..<(start + 2 + extendedBytes)].reduce(0) { $0 << 8 | UInt64($1) }
      }
      releasedEnd += headerBytes
      dataFrameBytesLeft = payloadBytes
      if payloadBytes == 0 { continue }
    }
  }

  // MARK: wslay callbacks

  fileprivate func receive(into buffer: UnsafeMutablePointer<UInt8>, length: Int) -> Int {
    guard failure == nil, handedOver < releasedEnd else {
      wslay_event_set_error(context, Int32(WSLAY_ERR_WOULDBLOCK.rawValue))
      return -1
    }
    let count = min(length, releasedEnd - handedOver)
    held.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress! + handedOver, count: count) }
    handedOver += count
    return count
  }

  fileprivate func accept(output data: UnsafePointer<UInt8>, length: Int) -> Int {
    let room = Self.outputHighWater - output.count
    guard room > 0 else {
      wslay_event_set_error(context, Int32(WSLAY_ERR_WOULDBLOCK.rawValue))
      return -1
    }
    let count = min(room, length)
    queuedPayloadBytes = max(0, queuedPayloadBytes - count)
    output.append(contentsOf: UnsafeBufferPointer(start: data, count: count))
    return count
  }

  fileprivate func frameStarted(_ frame: wslay_event_on_frame_recv_start_arg) {
    guard failure == nil else { return }
    frameOpcode = frame.opcode
    frameIsFinal = frame.fin != 0
    framePayload = []
    guard frame.payload_length <= UInt64(limits.maximumFrameBytes) else {
      fail(
        WebSocketCloseCode.messageTooBig,
        "a frame of \(frame.payload_length) bytes is over the limit of \(limits.maximumFrameBytes)")
      return
    }
    switch UInt32(frame.opcode) {
    case WSLAY_TEXT_FRAME.rawValue, WSLAY_BINARY_FRAME.rawValue:
      messageIsText = UInt32(frame.opcode) == WSLAY_TEXT_FRAME.rawValue
      messagePayload = []
      utf8 = UTF8Validator()
    case WSLAY_CONTINUATION_FRAME.rawValue:
      break
    default:
      return
    }
    // At the header, as the frame bound: wslay checks a text frame's UTF-8 over each piece it reads
    // before we see the piece, so a bad byte past the bound would be 1007 read whole and 1009 read
    // byte by byte if the bound were checked byte by byte.
    if frame.payload_length > UInt64(limits.maximumMessageBytes - messagePayload.count) {
      fail(
        WebSocketCloseCode.messageTooBig,
        "a message is over the limit of \(limits.maximumMessageBytes) bytes")
    }
  }

  fileprivate func frameChunk(_ chunk: UnsafeBufferPointer<UInt8>) {
    guard failure == nil else { return }
    switch UInt32(frameOpcode) {
    case WSLAY_TEXT_FRAME.rawValue, WSLAY_BINARY_FRAME.rawValue, WSLAY_CONTINUATION_FRAME.rawValue:
      // Within the message bound: `frameStarted` refused a frame that would cross it.
      if messageIsText && !utf8.feed(chunk) {
        fail(WebSocketCloseCode.invalidPayload, Self.notUTF8)
        return
      }
      messagePayload.append(contentsOf: chunk)
    case WSLAY_CONNECTION_CLOSE.rawValue:
      framePayload.append(contentsOf: chunk)
    default:
      break
    }
  }

  fileprivate func frameEnded() {
    guard failure == nil else { return }
    switch UInt32(frameOpcode) {
    case WSLAY_TEXT_FRAME.rawValue, WSLAY_CONTINUATION_FRAME.rawValue:
      if frameIsFinal && messageIsText && !utf8.isComplete {
        fail(WebSocketCloseCode.invalidPayload, Self.notUTF8)
      }
    case WSLAY_CONNECTION_CLOSE.rawValue:
      // wslay would echo the reason unchecked; a reason that is not UTF-8 fails the connection
      // before its reply is queued (RFC 6455 §8.1).
      // The reason is checked before the code: a whole close frame reaches wslay's own check of
      // its reason before this callback's end, so a frame wrong in both ways is a 1007 fed whole,
      // and the same order here makes it a 1007 fed byte by byte too (the fuzz target's oracle).
      if framePayload.count == 1 {
        fail(WebSocketCloseCode.protocolError, "a close frame's code is cut short")
        return
      }
      var validator = UTF8Validator()
      if framePayload.count > 2,
        !framePayload[2...].withContiguousStorageIfAvailable({ validator.feed($0) })! || !validator.isComplete
      {
        fail(WebSocketCloseCode.invalidPayload, Self.notUTF8)
        return
      }
      if framePayload.count >= 2 {
        let code = UInt16(framePayload[0]) << 8 | UInt16(framePayload[1])
        let valid = (1000...1011).contains(code) && ![1004, 1005, 1006].contains(code) || (3000...4999).contains(code)
        if !valid { fail(WebSocketCloseCode.protocolError, "close code \(code) may not be sent") }
      }
    default:
      break
    }
  }

  fileprivate func messageReceived(_ message: wslay_event_on_msg_recv_arg) {
    guard failure == nil else { return }
    // Data messages come without a payload (wslay does not buffer them): it is `messagePayload`.
    let payload = UnsafeBufferPointer(start: message.msg, count: message.msg_length)
    switch UInt32(message.opcode) {
    case WSLAY_TEXT_FRAME.rawValue:
      events.append(.message(.text(String(decoding: messagePayload, as: UTF8.self))))
      messagePayload = []
    case WSLAY_BINARY_FRAME.rawValue:
      events.append(.message(.binary(Data(messagePayload))))
      messagePayload = []
    case WSLAY_PING.rawValue:
      events.append(.ping(Data(payload)))
    case WSLAY_PONG.rawValue:
      events.append(.pong(Data(payload)))
    case WSLAY_CONNECTION_CLOSE.rawValue:
      peerCloseSeen = true
      let reason = payload.count > 2 ? String(decoding: payload[2...], as: UTF8.self) : ""
      let code = message.status_code == 0 ? WebSocketCloseCode.noStatus : message.status_code
      events.append(.peerClosed(code: code, reason: reason))
    default:
      break
    }
  }

  private func fail(_ code: UInt16, _ reason: String) {
    guard failure == nil else { return }
    // wslay sends its own 1002 and 1007 without a reason; ours match, so the bytes on the wire do
    // not depend on which check fired first. The event keeps the reason.
    let sameAsWslay = code == WebSocketCloseCode.protocolError || code == WebSocketCloseCode.invalidPayload
    // Queued at once, ahead of queued messages (a pong, say) and of a close still waiting for
    // them: otherwise wslay's own check of the rest of the piece it is reading could queue its
    // close first, and whether it does depends on how the input was split.
    if !isClosing || pendingClose != nil {
      pendingClose = nil
      hasQueuedClose = true
      queueClose(code, Self.closeReason(sameAsWslay ? "" : reason))
    }
    failure = code
    events.append(.failed(code: code, reason: reason))
  }
}

private func machine(_ user: UnsafeMutableRawPointer?) -> WebSocketFrameMachine {
  Unmanaged<WebSocketFrameMachine>.fromOpaque(user!).takeUnretainedValue()
}

/// An incremental UTF-8 check (RFC 3629: no overlong forms, surrogates or code points past
/// U+10FFFF), so a message's fragments are checked as they come and a split code point is fine.
struct UTF8Validator {
  private var remaining = 0
  private var lower: UInt8 = 0x80
  private var upper: UInt8 = 0xBF

  /// False at the first byte that cannot be UTF-8; the validator is then spent.
  mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    for byte in bytes {
      if remaining == 0 {
        switch byte {
        case 0x00...0x7F: continue
        case 0xC2...0xDF: remaining = 1
        case 0xE0: (remaining, lower) = (2, 0xA0)
        case 0xE1...0xEC, 0xEE, 0xEF: remaining = 2
        case 0xED: (remaining, upper) = (2, 0x9F)
        case 0xF0: (remaining, lower) = (3, 0x90)
        case 0xF1...0xF3: remaining = 3
        case 0xF4: (remaining, upper) = (3, 0x8F)
        default: return false
        }
      } else {
        guard byte >= lower && byte <= upper else { return false }
        (lower, upper) = (0x80, 0xBF)
        remaining -= 1
      }
    }
    return true
  }

  /// Whether the bytes so far end on a character boundary.
  var isComplete: Bool { remaining == 0 }
}

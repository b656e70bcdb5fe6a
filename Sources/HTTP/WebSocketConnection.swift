import Glibc

/// A connection after its 101: the socket's bytes go through a `WebSocketFrameMachine`, its events
/// to the session, and the session's messages back out, on the connection's own thread.
///
/// One poll(2) waits for the socket, the session's wake pair (a send from another thread) and
/// the server's stop signal, with the idle or close deadline as its timeout. Output is taken
/// from the session only while little is waiting to be written, so a slow reader leaves the
/// messages in the session's bounded queue, where they hold its senders back.
///
/// What the peer makes us answer is bounded too: while the machine holds as much unsent output as
/// it may (`WebSocketFrameMachine.maximumUnsentBytes`, from the session's queue bound), the socket is
/// not read, so a client that pings without reading keeps its pings in its own and the kernel's
/// buffers. Nothing is then read or written, and at the idle timeout the connection is closed with
/// 1008 (the close frame queued behind what the client does not read; the connection dropped at
/// the close timeout). A client that reads gets every pong.
struct WebSocketConnection {
  let socket: Socket
  let session: WebSocketSession
  let stopSignal: Int32
  let isStopping: @Sendable () -> Bool

  func run() {
    var pair: [Int32] = [-1, -1]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
      session.finish()
      session.onEvent(session, .closed(code: WebSocketCloseCode.internalError, reason: "no wake pair"))
      return
    }
    defer {
      close(pair[0])
      close(pair[1])
    }
    let options = session.options
    let machine = WebSocketFrameMachine(
      limits: options.limits,
      maximumUnsentBytes: WebSocketFrameMachine.maximumUnsentBytes(queuedBytes: options.maximumQueuedBytes))
    session.attach(wake: pair[1])
    session.onEvent(session, .opened)

    var readBuffer = [UInt8](repeating: 0, count: ServerConnection.readChunkBytes)
    var scratch = [UInt8](repeating: 0, count: 64)
    var unsent: [UInt8] = []
    var unsentOffset = 0
    var lastActivity = ContinuousClock.now
    var closeDeadline: ContinuousClock.Instant?
    var endCode = WebSocketCloseCode.abnormal
    var endReason = "the connection ended without a close frame"

    func startClosing(_ code: UInt16, _ reason: String) {
      if machine.close(code: code, reason: reason) {
        endCode = code
        endReason = reason
      }
      if closeDeadline == nil { closeDeadline = .now + options.closeTimeout }
    }

    func handle(_ events: [WebSocketFrameMachine.Event]) {
      for event in events {
        switch event {
        case .message(let message):
          session.onEvent(session, .message(message))
        case .ping, .pong:
          break  // wslay queued the pong; nothing for the session
        case .peerClosed(let code, let reason):
          if closeDeadline == nil {
            endCode = code
            endReason = reason
            closeDeadline = .now + options.closeTimeout
          }
        case .failed(let code, let reason):
          endCode = code
          endReason = reason
          if closeDeadline == nil { closeDeadline = .now + options.closeTimeout }
        }
      }
    }

    loop: while true {
      // Move the session's messages into the machine only while little output waits.
      while unsentOffset == unsent.count && machine.queuedPayloadBytes == 0 && !machine.isClosing {
        let next = session.takeNext()
        if let message = next.message {
          machine.send(message)
        } else {
          if let close = next.close { startClosing(close.code, close.reason) }
          break
        }
      }
      if !machine.isClosing && isStopping() { startClosing(WebSocketCloseCode.goingAway, "the server is stopping") }
      // Output taken last time round made room for the answers to what was held back.
      if machine.isWaitingForOutputRoom { handle(machine.feedHeldInput()) }
      if unsentOffset == unsent.count {
        unsent = machine.takeOutput()
        unsentOffset = 0
      }
      if unsentOffset == unsent.count && machine.isFinished { break }

      let reads = machine.wantsInput && !machine.isWaitingForOutputRoom
      session.noteUnsentOutput(unsent.count - unsentOffset + machine.unsentByteCount)
      var events = Int16(0)
      if reads { events |= Int16(POLLIN) }
      if unsentOffset < unsent.count { events |= Int16(POLLOUT) }
      var descriptors = [
        pollfd(fd: socket.descriptor, events: events, revents: 0),
        pollfd(fd: pair[0], events: Int16(POLLIN), revents: 0),
      ]
      // The stop signal stays readable once fired: watched only until our 1001 is queued.
      if !machine.isClosing { descriptors.append(pollfd(fd: stopSignal, events: Int16(POLLIN), revents: 0)) }
      let deadline = min(lastActivity + options.idleTimeout, closeDeadline ?? lastActivity + options.idleTimeout)
      let count = poll(&descriptors, nfds_t(descriptors.count), pollTimeoutMilliseconds(until: deadline))
      if count < 0 {
        if errno == EINTR { continue }
        break
      }
      // At every wake-up, not only at a timeout: wake-ups that move nothing (a sender's while the
      // client reads nothing) must not put the deadlines off.
      if let closeDeadline, closeDeadline <= .now { break }  // the peer never answered our close
      if lastActivity + options.idleTimeout <= .now {
        if machine.isWaitingForOutputRoom {
          startClosing(WebSocketCloseCode.policyViolation, "the client does not read what it is sent")
        } else {
          startClosing(
            WebSocketCloseCode.goingAway, "idle for \(options.idleTimeout.wholeMillisecondsRoundedUp) ms")
        }
        lastActivity = .now
      }
      if count == 0 { continue }
      if descriptors[1].revents != 0 {
        _ = scratch.withUnsafeMutableBytes { recv(pair[0], $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
      }
      let socketEvents = descriptors[0].revents
      if socketEvents & Int16(POLLOUT) != 0 || socketEvents & Int16(POLLERR | POLLHUP) != 0 {
        while unsentOffset < unsent.count {
          let sent = unsent.withUnsafeBytes { raw in
            send(
              socket.descriptor, raw.baseAddress! + unsentOffset, raw.count - unsentOffset,
              Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
          }
          if sent > 0 {
            unsentOffset += sent
            lastActivity = .now
          } else if sent < 0 && errno == EINTR {
            continue
          } else if sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
            break
          } else {
            break loop  // EPIPE, ECONNRESET: the peer is gone.
          }
        }
      }
      if socketEvents & Int16(POLLIN | POLLERR | POLLHUP) != 0 && reads {
        switch socket.receive(into: &readBuffer) {
        case .wouldBlock:
          break
        case .endOfInput, .failed:
          break loop
        case .bytes(let received):
          lastActivity = .now
          handle(
            readBuffer.withUnsafeBufferPointer {
              machine.feed(UnsafeBufferPointer(rebasing: $0[..<received]))
            })
          session.noteUnsentOutput(unsent.count - unsentOffset + machine.unsentByteCount)
        }
      } else if socketEvents & Int16(POLLERR | POLLHUP) != 0 && unsentOffset == unsent.count {
        break loop  // the peer is gone, and neither reading nor writing would tell us more
      }
    }
    // RFC 6455 §7.1.1: the server closes the TCP connection first, once the close is exchanged.
    socket.shutdownOutput()
    discardUnreadInput(into: &readBuffer)
    session.finish()
    session.onEvent(session, .closed(code: endCode, reason: endReason))
  }

  /// Reads and drops what the peer still sends after our close (a client in the middle of an
  /// oversized message), for a bounded time and amount: a socket closed with unread bytes is reset,
  /// and the reset can reach the client before our close frame does, so it would see no close code.
  private func discardUnreadInput(into buffer: inout [UInt8]) {
    let deadline = ContinuousClock.now + min(session.options.closeTimeout, .seconds(2))
    var discarded = 0
    while discarded < 64 << 20 {
      var descriptor = pollfd(fd: socket.descriptor, events: Int16(POLLIN), revents: 0)
      let ready = poll(&descriptor, 1, pollTimeoutMilliseconds(until: deadline))
      if ready < 0 && errno == EINTR { continue }
      guard ready > 0 else { return }
      guard case .bytes(let count) = socket.receive(into: &buffer) else { return }
      discarded += count
    }
  }
}

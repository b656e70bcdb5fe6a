import Foundation
import Glibc
import Synchronization

/// One WebSocket connection as its user sees it: events come in on the connection's thread, and
/// messages go out from any thread.
///
/// A handler creates one and returns `HTTPResponse.webSocket(for:session:)`; after the 101 the
/// server runs the connection's loop on its thread and calls `onEvent` there, in order: `.opened`,
/// the messages, then `.closed` exactly once.
///
/// Sending is bounded: messages wait in a queue of at most `maximumQueuedBytes` (plus about
/// 64 KiB being written), so a client that reads slowly makes `send` wait or report `.wouldBlock`
/// instead of growing memory. A message larger than the bound is taken only when the queue is
/// empty, so one message of any size still goes. What the client makes the connection answer
/// (pongs, a close) is bounded as well (`WebSocketConnection`): a client that pings without
/// reading is no longer read, and is closed with 1008 at the idle timeout.
public final class WebSocketSession: @unchecked Sendable, Equatable {
  /// What happened on the connection.
  public enum Event: Sendable, Equatable {
    /// The 101 is sent; messages may flow.
    case opened
    case message(WebSocketMessage)
    /// The connection is over. `code` is the peer's close code, ours when we failed or closed it
    /// first (1001 at idle or server stop, 1002, 1007, 1009), or 1006 when it ended without one.
    case closed(code: UInt16, reason: String)
  }

  /// What a send did.
  public enum SendResult: Sendable, Equatable {
    case queued
    /// The queue is full (`trySend`), or stayed full until the deadline (`send`).
    case wouldBlock
    /// The session is closing or closed; nothing more goes out.
    case closed
  }

  /// Bounds and timeouts of one session.
  public struct Options: Sendable {
    /// What the peer may send.
    public var limits: WebSocketFrameMachine.Limits
    /// Bytes of messages waiting to be written at most; past it, senders wait.
    public var maximumQueuedBytes: Int
    /// No byte read or written for this long: closed with 1001 (pings and pongs are bytes too), or
    /// with 1008 when reading was held back because the client does not read its pongs.
    public var idleTimeout: Duration
    /// How long to wait for the peer's close frame after ours, before dropping the connection.
    public var closeTimeout: Duration

    /// 1 MiB frames and 16 MiB messages in, 1 MiB queued out, 60 s idle, 2 s to answer a close.
    public init(
      limits: WebSocketFrameMachine.Limits = .init(), maximumQueuedBytes: Int = 1 << 20,
      idleTimeout: Duration = .seconds(60), closeTimeout: Duration = .seconds(2)
    ) {
      self.limits = limits
      self.maximumQueuedBytes = maximumQueuedBytes
      self.idleTimeout = idleTimeout
      self.closeTimeout = closeTimeout
    }
  }

  public typealias EventHandler = @Sendable (WebSocketSession, Event) -> Void

  public let options: Options
  let onEvent: EventHandler

  // Everything below is guarded by `condition`, which also wakes senders waiting for room.
  private let condition = NSCondition()
  private var outbox: [WebSocketMessage] = []
  private var outboxStart = 0
  private var queuedBytes = 0
  private var closeRequest: (code: UInt16, reason: String)?
  private var finished = false
  /// The write end of the connection loop's wake pair, once it runs.
  private var wakeDescriptor: Int32 = -1
  /// Written by the connection's loop at each turn; atomics so that a look never waits on it.
  private let unsentOutputBytes = Atomic<Int>(0)
  private let peakUnsentOutputBytes = Atomic<Int>(0)

  /// A session with `options`; `onEvent` runs on the connection's thread, so it should not block
  /// for long, and must use `trySend` (or `send` with a deadline), not wait for room that only its
  /// own thread can make.
  public init(options: Options = Options(), onEvent: @escaping EventHandler) {
    self.options = options
    self.onEvent = onEvent
  }

  public static func == (left: WebSocketSession, right: WebSocketSession) -> Bool { left === right }

  /// Queues `message`, waiting for room until `deadline` (forever when nil).
  public func send(_ message: WebSocketMessage, until deadline: ContinuousClock.Instant? = nil) -> SendResult {
    condition.lock()
    defer { condition.unlock() }
    while true {
      if finished || closeRequest != nil { return .closed }
      if hasRoom(for: message) { break }
      if let deadline {
        let remaining = deadline - .now
        guard remaining > .zero else { return .wouldBlock }
        let seconds = Double(remaining.components.seconds) + Double(remaining.components.attoseconds) / 1e18
        _ = condition.wait(until: Date(timeIntervalSinceNow: seconds))
      } else {
        condition.wait()
      }
    }
    enqueue(message)
    return .queued
  }

  /// Queues `message` if there is room now.
  public func trySend(_ message: WebSocketMessage) -> SendResult {
    condition.lock()
    defer { condition.unlock() }
    if finished || closeRequest != nil { return .closed }
    guard hasRoom(for: message) else { return .wouldBlock }
    enqueue(message)
    return .queued
  }

  /// Starts the close handshake after what is already queued (or at once, what is queued dropped,
  /// when `discardingQueued`: for a peer that takes nothing); later sends report `.closed`.
  public func close(code: UInt16 = WebSocketCloseCode.normal, reason: String = "", discardingQueued: Bool = false) {
    condition.lock()
    defer { condition.unlock() }
    guard !finished, closeRequest == nil else { return }
    closeRequest = (code, reason)
    if discardingQueued {
      outbox = []
      outboxStart = 0
      queuedBytes = 0
    }
    wake()
    condition.broadcast()
  }

  /// Bytes waiting to be written; for tests and metrics.
  public var queuedByteCount: Int {
    condition.lock()
    defer { condition.unlock() }
    return queuedBytes
  }

  /// Bytes the connection holds for the client beyond this queue (frames the machine has queued,
  /// pongs included, and bytes not yet written to the socket), as of the loop's last turn; and
  /// the most it held. For tests and metrics.
  public var unsentOutputByteCount: Int { unsentOutputBytes.load(ordering: .relaxed) }
  public var peakUnsentOutputByteCount: Int { peakUnsentOutputBytes.load(ordering: .relaxed) }

  private func hasRoom(for message: WebSocketMessage) -> Bool {
    queuedBytes == 0 || queuedBytes + message.byteCount <= options.maximumQueuedBytes
  }

  private func enqueue(_ message: WebSocketMessage) {
    outbox.append(message)
    queuedBytes += message.byteCount
    wake()
  }

  private func wake() {
    guard wakeDescriptor >= 0 else { return }
    var byte: UInt8 = 1
    // A full pair already means "wake up"; losing this byte changes nothing.
    _ = Glibc.send(wakeDescriptor, &byte, 1, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL))
  }

  // MARK: For the connection loop

  /// Called once the loop runs, with the write end of its wake pair.
  func attach(wake descriptor: Int32) {
    condition.lock()
    wakeDescriptor = descriptor
    let pending = !outbox.isEmpty || closeRequest != nil
    condition.unlock()
    if pending { wake() }
  }

  func noteUnsentOutput(_ bytes: Int) {
    unsentOutputBytes.store(bytes, ordering: .relaxed)
    if bytes > peakUnsentOutputBytes.load(ordering: .relaxed) { peakUnsentOutputBytes.store(bytes, ordering: .relaxed) }
  }

  /// The next queued message, or the close request once the queue is empty.
  func takeNext() -> (message: WebSocketMessage?, close: (code: UInt16, reason: String)?) {
    condition.lock()
    defer { condition.unlock() }
    if outboxStart < outbox.count {
      let message = outbox[outboxStart]
      outboxStart += 1
      if outboxStart > 64 && outboxStart * 2 > outbox.count {
        outbox.removeFirst(outboxStart)
        outboxStart = 0
      }
      queuedBytes -= message.byteCount
      condition.broadcast()
      return (message, nil)
    }
    return (nil, closeRequest)
  }

  /// The loop ended: senders are told `.closed` and the queue is dropped.
  func finish() {
    condition.lock()
    finished = true
    wakeDescriptor = -1
    outbox = []
    outboxStart = 0
    queuedBytes = 0
    condition.broadcast()
    condition.unlock()
  }
}

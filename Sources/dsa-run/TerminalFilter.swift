import Glibc
import Synchronization

// A program's output on the user's terminal: what the program prints is shown, but the escape
// sequences that make the terminal do more than draw are not passed to it. A program may set the
// clipboard (OSC 52), retitle the window (OSC 0/1/2) or plant links (OSC 8), ask the terminal a
// question whose answer arrives as typed input (CSI 6 n, CSI c, CSI 21 t, DECRQSS, ESC Z, ENQ),
// send it device-control strings (DCS, APC, PM, SOS), reset it (ESC c) or switch its character set
// (SO, ESC ( 0). Colour and cursor movement stay, so progress bars drawn with \r and coloured test
// output look as they would without dsa-run.
//
// A refused sequence is shown, not dropped: its ESC becomes the two visible characters "^[" (an
// 8-bit C1 control the "^[" and its 7-bit equivalent, 0x9D as "^[]"; ENQ, SO and SI as ^E, ^N, ^O),
// and the rest of it is printed as the ordinary text it then is. The user sees that something was
// refused and what, and nothing is lost that a pipe would have kept. A pipe or a file always gets
// the bytes unchanged, and so does a terminal with --raw-output.

/// A streaming filter over one output stream: bytes in, bytes for the terminal out. A sequence
/// split between two chunks is held (at most `maximumHeld` bytes) until it is complete, and
/// `finish` shows what is still held when the stream ends.
struct TerminalFilter {
  /// The longest control sequence held while it is undecided; a longer one is refused.
  static let maximumHeld = 64

  private enum State {
    /// Plain text; `continuation` more UTF-8 continuation bytes are expected, each within `range`.
    case ground
    /// An ESC was seen.
    case escape
    /// ESC followed by intermediate bytes (ESC ( 0, ESC # 8): every such sequence is refused.
    case escapeIntermediate
    /// ESC [ and its parameter and intermediate bytes so far.
    case csi
  }

  private var state = State.ground
  /// The bytes of the sequence being decided.
  private var held: [UInt8] = []
  /// UTF-8: continuation bytes still expected, and the range the next one must be in.
  private var continuation = 0
  private var nextContinuation: ClosedRange<UInt8> = 0x80...0xBF

  /// The CSI final bytes that are kept with plain numeric parameters: SGR (m), the cursor's moves
  /// and position (A-G, H, f, d, e, a, `), erasing (J, K, X), inserting and deleting characters and
  /// lines (@, P, L, M), scrolling (S, T), and saving and restoring the cursor (s, u).
  static let keptFinals = Set("mABCDEFGHfdea`JKX@PLMSTsu".utf8)

  mutating func filter(_ bytes: some Sequence<UInt8>) -> [UInt8] {
    var output: [UInt8] = []
    for byte in bytes { step(byte, into: &output) }
    return output
  }

  /// Shows what is still held (a sequence the stream ended in), refused.
  mutating func finish() -> [UInt8] {
    var output: [UInt8] = []
    refuseHeld(into: &output)
    continuation = 0
    return output
  }

  private mutating func step(_ byte: UInt8, into output: inout [UInt8]) {
    switch state {
    case .ground: ground(byte, into: &output)
    case .escape:
      held.append(byte)
      switch byte {
      case UInt8(ascii: "["): state = .csi
      // DECSC, DECRC, IND, NEL, RI: the cursor's own moves.
      case UInt8(ascii: "7"), UInt8(ascii: "8"), UInt8(ascii: "D"), UInt8(ascii: "E"), UInt8(ascii: "M"):
        output += held
        held = []
        state = .ground
      case 0x20...0x2F: state = .escapeIntermediate
      default:
        // OSC (]), DCS (P), APC (_), PM (^), SOS (X), RIS (c), DECID (Z), keypad and charset
        // changes, and an ESC before anything else: refused, the byte after it as text.
        held.removeLast()
        refuseHeld(into: &output)
        ground(byte, into: &output)
      }
    case .escapeIntermediate:
      held.append(byte)
      if !(0x20...0x2F).contains(byte) || held.count >= Self.maximumHeld {
        held.removeLast()
        refuseHeld(into: &output)
        ground(byte, into: &output)
      }
    case .csi:
      held.append(byte)
      switch byte {
      case 0x30...0x3F, 0x20...0x2F:
        if held.count >= Self.maximumHeld { refuseHeld(into: &output) }
      case 0x40...0x7E:
        if Self.keeps(held) {
          output += held
          held = []
          state = .ground
        } else {
          refuseHeld(into: &output)
        }
      default:
        // A control or a byte that cannot be in a CSI: the sequence is broken; shown as text.
        held.removeLast()
        refuseHeld(into: &output)
        ground(byte, into: &output)
      }
    }
  }

  private mutating func ground(_ byte: UInt8, into output: inout [UInt8]) {
    if continuation > 0 {
      if nextContinuation.contains(byte) {
        continuation -= 1
        nextContinuation = 0x80...0xBF
        output.append(byte)
        return
      }
      // A broken UTF-8 sequence: the terminal shows a replacement character; this byte starts anew.
      continuation = 0
    }
    switch byte {
    case 0x1B:
      held = [byte]
      state = .escape
    // ENQ (the terminal answers with its answerback), SO and SI (character set shifts).
    case 0x05, 0x0E, 0x0F:
      output += [UInt8(ascii: "^"), byte + 0x40]
    case 0x80...0x9F:
      // A C1 control (not part of a UTF-8 character here): 0x9B is CSI, 0x9D OSC, 0x90 DCS.
      output += [UInt8(ascii: "^"), UInt8(ascii: "["), byte - 0x40]
    case 0xC2...0xDF:
      continuation = 1
      output.append(byte)
    case 0xE0...0xEF:
      continuation = 2
      nextContinuation = byte == 0xE0 ? 0xA0...0xBF : byte == 0xED ? 0x80...0x9F : 0x80...0xBF
      output.append(byte)
    case 0xF0...0xF4:
      continuation = 3
      nextContinuation = byte == 0xF0 ? 0x90...0xBF : byte == 0xF4 ? 0x80...0x8F : 0x80...0xBF
      output.append(byte)
    default: output.append(byte)
    }
  }

  /// Shows the held sequence with its ESC made visible, and goes back to plain text.
  private mutating func refuseHeld(into output: inout [UInt8]) {
    guard !held.isEmpty else { return }
    let rest = held.dropFirst()
    held = []
    state = .ground
    output += [UInt8(ascii: "^"), UInt8(ascii: "[")]
    for byte in rest { ground(byte, into: &output) }
  }

  /// Whether a whole CSI sequence (ESC [ ... final) is one that is kept: a kept final with plain
  /// numeric parameters (digits, ";" and ":" for SGR's colours), or the cursor shown or hidden
  /// (CSI ? 25 h, CSI ? 25 l). Private parameters, intermediates and every other final (DSR's n,
  /// DA's c, window reports' t, modes' h and l, DECSTR, DECSCUSR) are refused.
  static func keeps(_ sequence: [UInt8]) -> Bool {
    guard sequence.count >= 3, let final = sequence.last else { return false }
    let parameters = sequence[2..<(sequence.count - 1)]
    if parameters.elementsEqual("?25".utf8) { return final == UInt8(ascii: "h") || final == UInt8(ascii: "l") }
    guard keptFinals.contains(final) else { return false }
    let plain = parameters.allSatisfy { (0x30...0x39).contains($0) || $0 == 0x3B || $0 == 0x3A }
    return plain && (final == UInt8(ascii: "m") || !parameters.contains(0x3A))
  }
}

/// Where the CLI writes what a program (or its compiler, or a checker) printed: to a terminal
/// through one `TerminalFilter` per stream, to anything else as it came.
enum ProgramOutput {
  /// `--raw-output`: a terminal gets the bytes unchanged too.
  static let raw = Atomic<Bool>(false)

  private struct Streams {
    var filters: [Int32: TerminalFilter] = [:]
    var terminals: [Int32: Bool] = [:]
  }

  private static let streams = Mutex(Streams())

  /// The last byte of a program's output written to a terminal, or -1 when none was (or when
  /// dsa-run's own line came after it).
  private static let lastByteOnTerminal = Atomic<Int>(-1)

  /// Whether `fd` is a terminal (asked once per descriptor).
  static func isTerminal(_ fd: Int32) -> Bool {
    streams.withLock { streams in
      if let known = streams.terminals[fd] { return known }
      let terminal = isatty(fd) != 0
      streams.terminals[fd] = terminal
      return terminal
    }
  }

  /// Whether `fd` gets filtered output: a terminal, and no --raw-output.
  static func filters(_ fd: Int32) -> Bool {
    guard !raw.load(ordering: .relaxed) else { return false }
    return isTerminal(fd)
  }

  /// Whether dsa-run's own line needs a line break before it: the program's output (the last byte
  /// of it on the terminal, nil when there was none) stopped in the middle of a line, at a prompt
  /// or a progress bar, where the line would otherwise begin.
  static func needsLineBreak(after lastByte: UInt8?) -> Bool {
    guard let lastByte else { return false }
    return lastByte != UInt8(ascii: "\n")
  }

  /// At a terminal, ends the program's last line when it did not: what dsa-run prints next (a limit,
  /// an exit code, the shell's prompt after Ctrl-C) starts a line of its own. Pipes and files get
  /// nothing: they hold the program's output as it printed it.
  static func startOwnLine(on fd: Int32 = 2) {
    guard isTerminal(fd) else { return }
    let last = lastByteOnTerminal.exchange(-1, ordering: .acquiringAndReleasing)
    if needsLineBreak(after: last < 0 ? nil : UInt8(last)) { writeAll(fd, [UInt8(ascii: "\n")]) }
  }

  /// dsa-run's own line on stderr ("dsa-run: MESSAGE"), on a line of its own at a terminal.
  static func writeOwnLine(_ message: String) {
    startOwnLine()
    writeAll(2, Array("dsa-run: \(message)\n".utf8))
  }

  /// Notes the last byte of a program's output written to `fd`, when `fd` is a terminal.
  private static func noteWritten(_ bytes: [UInt8], to fd: Int32) {
    guard let last = bytes.last, isTerminal(fd) else { return }
    lastByteOnTerminal.store(Int(last), ordering: .releasing)
  }

  /// Writes a chunk of a stream to `fd` (1 or 2); with `endOfStream`, what is still held is shown
  /// after it.
  static func write(_ bytes: some Collection<UInt8>, to fd: Int32, endOfStream: Bool = false) {
    guard filters(fd) else {
      let unchanged = Array(bytes)
      writeAll(fd, unchanged)
      noteWritten(unchanged, to: fd)
      return
    }
    let filtered = streams.withLock { streams in
      var filter = streams.filters[fd] ?? TerminalFilter()
      var output = filter.filter(bytes)
      if endOfStream { output += filter.finish() }
      streams.filters[fd] = filter
      return output
    }
    writeAll(fd, filtered)
    noteWritten(filtered, to: fd)
  }

  /// Ends both streams: a sequence still held is shown.
  static func endStreams() {
    for fd: Int32 in [1, 2] where filters(fd) {
      let rest = streams.withLock { streams -> [UInt8] in
        guard var filter = streams.filters[fd] else { return [] }
        let output = filter.finish()
        streams.filters[fd] = filter
        return output
      }
      writeAll(fd, rest)
      noteWritten(rest, to: fd)
    }
  }

  /// `text` as it should reach `fd` when printed whole with `print` (a grade's explanation, which
  /// quotes the program's output and stderr).
  static func text(_ text: String, for fd: Int32) -> String {
    guard filters(fd) else { return text }
    var filter = TerminalFilter()
    return String(decoding: filter.filter(text.utf8) + filter.finish(), as: UTF8.self)
  }

  /// Writes all of `bytes` to `fd`.
  static func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, bytes.count - offset) }
      if written > 0 {
        offset += written
      } else if written < 0 && errno == EINTR {
        continue
      } else {
        return
      }
    }
  }
}

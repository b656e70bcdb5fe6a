import Foundation
import Runners
import Wire

/// A live run's events as the wire carries them, shared by `/v1/connect` (each a message with its
/// `type`) and SSE (each an `event:` name with the same object, `type` left out).
struct LiveEventEncoder {
  private var stdoutCarry = UTF8Carry()
  private var stderrCarry = UTF8Carry()

  /// The event's name and its fields; nil when a chunk held only the start of a character, which
  /// goes out with the next chunk.
  mutating func encode(_ event: LiveEvent) -> (name: String, fields: [String: JSONValue])? {
    switch event {
    case .stageStarted(let stage):
      return ("stage", ["stage": .string(stage.rawValue), "state": "started"])
    case .stageFinished(let stage, let status, let wallMs):
      return (
        "stage",
        [
          "stage": .string(stage.rawValue), "state": "finished", "status": .string(status),
          "wall_ms": .number(Double(wallMs)),
        ]
      )
    case .stdout(let bytes):
      guard let text = stdoutCarry.decode(bytes) else { return nil }
      return ("stdout", ["data": .string(text)])
    case .stderr(let bytes):
      guard let text = stderrCarry.decode(bytes) else { return nil }
      return ("stderr", ["data": .string(text)])
    case .step(let step):
      return ("step", ["step": step.object])
    }
  }

  /// What the carries still hold once output is over (a character cut off at the end), as events.
  mutating func flush() -> [(name: String, fields: [String: JSONValue])] {
    var events: [(name: String, fields: [String: JSONValue])] = []
    if let text = stdoutCarry.finish() { events.append(("stdout", ["data": .string(text)])) }
    if let text = stderrCarry.finish() { events.append(("stderr", ["data": .string(text)])) }
    return events
  }
}

/// Decodes a byte stream chunk by chunk as UTF-8 without turning a character split between two
/// chunks into two U+FFFD: the incomplete end of a chunk waits for the next one.
struct UTF8Carry {
  private var pending: [UInt8] = []

  /// The text of `bytes` after what was held back; nil when nothing is complete yet.
  mutating func decode(_ bytes: [UInt8]) -> String? {
    var all = pending
    all += bytes
    let cut = Self.completePrefixLength(all)
    pending = Array(all[cut...])
    return cut == 0 ? nil : String(decoding: all[..<cut], as: UTF8.self)
  }

  /// What is still held, as text (invalid bytes as U+FFFD); nil when nothing is.
  mutating func finish() -> String? {
    defer { pending = [] }
    return pending.isEmpty ? nil : String(decoding: pending, as: UTF8.self)
  }

  /// The length of `bytes` without a trailing lead byte whose continuation bytes have not all come
  /// (at most 3 bytes held; anything else invalid is left for the decoder to replace).
  static func completePrefixLength(_ bytes: [UInt8]) -> Int {
    let end = bytes.count
    var index = end
    while index > max(0, end - 3) && bytes[index - 1] & 0xC0 == 0x80 { index -= 1 }
    guard index > 0 else { return end }
    let lead = bytes[index - 1]
    let needed: Int
    switch lead {
    case 0xC2...0xDF: needed = 2
    case 0xE0...0xEF: needed = 3
    case 0xF0...0xF4: needed = 4
    default: return end
    }
    return end - (index - 1) < needed ? index - 1 : end
  }
}

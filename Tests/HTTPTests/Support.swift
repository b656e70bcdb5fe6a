import Foundation
import Testing

@testable import HTTP

/// SplitMix64: a fixed seed gives the same split points on every run and machine, so a failure
/// found by the random-split tests can be replayed.
struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var value = state
    value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
    value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
    return value ^ (value >> 31)
  }
}

/// Request text with CRLF line ends written as `\r\n` in the literal, as bytes.
func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

/// All of `input` in one feed.
func parseAtOnce(_ input: [UInt8], limits: HTTPRequestParser.Limits = .init()) -> [HTTPRequestParser.Event] {
  var parser = HTTPRequestParser(limits: limits)
  return parser.feed(input)
}

/// `input` one byte per feed.
func parseByteByByte(_ input: [UInt8], limits: HTTPRequestParser.Limits = .init()) -> [HTTPRequestParser.Event] {
  var parser = HTTPRequestParser(limits: limits)
  return input.flatMap { parser.feed(CollectionOfOne($0)) }
}

/// `input` cut at `cuts` (sorted offsets), one feed per piece.
func parse(
  _ input: [UInt8], cutAt cuts: [Int], limits: HTTPRequestParser.Limits = .init()
) -> [HTTPRequestParser.Event] {
  var parser = HTTPRequestParser(limits: limits)
  var events: [HTTPRequestParser.Event] = []
  var start = 0
  for cut in cuts + [input.count] where cut >= start {
    events += parser.feed(input[start..<cut])
    start = cut
  }
  return events
}

/// Up to `maximumCuts` random sorted cut points inside `count` bytes.
func randomCuts(count: Int, maximumCuts: Int, using generator: inout SeededGenerator) -> [Int] {
  guard count > 1 else { return [] }
  let cuts = Int.random(in: 1...maximumCuts, using: &generator)
  return (0..<cuts).map { _ in Int.random(in: 1..<count, using: &generator) }.sorted()
}

extension HTTPRequestParser.Event {
  var request: HTTPRequest? {
    if case .request(let request) = self { return request }
    return nil
  }

  var error: HTTPParseError? {
    if case .error(let error) = self { return error }
    return nil
  }
}

extension [HTTPRequestParser.Event] {
  var requests: [HTTPRequest] { compactMap(\.request) }
  var errors: [HTTPParseError] { compactMap(\.error) }
}

import Foundation
import Testing

@testable import dsa_run

/// The CLI's filter of a program's output at a terminal (Sources/dsa-run/TerminalFilter.swift), as
/// bytes in and out: every input is also fed one byte at a time and in two halves at every split,
/// which must give the same bytes as feeding it whole.
@Suite struct TerminalFilterTests {
  static func filtered(_ input: [UInt8]) -> [UInt8] {
    var filter = TerminalFilter()
    let whole = filter.filter(input) + filter.finish()
    var byByte = TerminalFilter()
    var split: [UInt8] = []
    for byte in input { split += byByte.filter([byte]) }
    split += byByte.finish()
    #expect(split == whole, "byte by byte: \(String(decoding: input, as: UTF8.self).debugDescription)")
    for cut in 0...input.count {
      var halves = TerminalFilter()
      let parts = halves.filter(input[..<cut]) + halves.filter(input[cut...]) + halves.finish()
      #expect(parts == whole, "split at \(cut): \(String(decoding: input, as: UTF8.self).debugDescription)")
    }
    return whole
  }

  static func filtered(_ text: String) -> String { String(decoding: filtered(Array(text.utf8)), as: UTF8.self) }

  @Test(arguments: [
    "plain text\n", "\u{1B}[31mred\u{1B}[0m and \u{1B}[1;38;5;208mbold orange\u{1B}[m",
    "\u{1B}[38:2:255:0:0mtrue colour",
    "\rprogress 10%\rprogress 100%\n", "a\tb\u{8}c\u{7}", "\u{1B}[2K\u{1B}[1G\u{1B}[3A\u{1B}[10;20H\u{1B}[J\u{1B}[K",
    "\u{1B}[?25l hidden cursor \u{1B}[?25h", "\u{1B}7saved\u{1B}8", "héllo ✓ 日本語 🎉 \u{FFFD}",
  ])
  func colourCursorMovementAndUTF8PassUnchanged(text: String) {
    #expect(Self.filtered(text) == text)
  }

  @Test(arguments: [
    // OSC 52 (clipboard), titles, links, palette and colour queries; BEL or ST terminated.
    ("\u{1B}]52;c;SGVsbG8=\u{7}", "^[]52;c;SGVsbG8=\u{7}"),
    ("\u{1B}]0;pwned\u{1B}\\", "^[]0;pwned^[\\"),
    ("\u{1B}]2;title\u{7}x", "^[]2;title\u{7}x"),
    ("\u{1B}]8;;http://evil/\u{1B}\\link\u{1B}]8;;\u{1B}\\", "^[]8;;http://evil/^[\\link^[]8;;^[\\"),
    ("\u{1B}]11;?\u{7}", "^[]11;?\u{7}"),
    // Queries whose answers come back as typed input: window title report, DSR, DA, DECRQSS, DECID.
    ("\u{1B}[21t", "^[[21t"), ("\u{1B}[6n", "^[[6n"), ("\u{1B}[c", "^[[c"), ("\u{1B}[>0c", "^[[>0c"),
    ("\u{1B}P$q m\u{1B}\\", "^[P$q m^[\\"), ("\u{1B}Z", "^[Z"),
    // Window operations, modes other than the cursor's visibility, full and soft reset.
    ("\u{1B}[8;100;300t", "^[[8;100;300t"), ("\u{1B}[?1049h", "^[[?1049h"), ("\u{1B}[?1000h", "^[[?1000h"),
    ("\u{1B}c", "^[c"), ("\u{1B}[!p", "^[[!p"),
    // APC, PM, SOS; charset switches.
    ("\u{1B}_payload\u{1B}\\", "^[_payload^[\\"), ("\u{1B}^pm\u{1B}\\", "^[^pm^[\\"),
    ("\u{1B}Xsos\u{1B}\\", "^[Xsos^[\\"),
    ("\u{1B}(0lqk\u{1B}(B", "^[(0lqk^[(B"), ("a\u{0E}b\u{0F}c\u{05}", "a^Nb^Oc^E"),
    // A CSI broken by a control, and one too long to hold.
    ("\u{1B}[1\n2m", "^[[1\n2m"),
  ])
  func sequencesThatActOnTheTerminalAreShownNotObeyed(input: String, shown: String) {
    let output = Self.filtered(input)
    #expect(output == shown)
    #expect(!output.utf8.contains(0x1B), "\(output.debugDescription)")
  }

  @Test func eightBitControlsAreShownButUTF8ContinuationBytesAreNot() {
    // 0x9B is CSI and 0x9D OSC when they stand alone; inside "✓" (E2 9C 93) and "Ş" (C5 9E) they are
    // continuation bytes of a character.
    #expect(Self.filtered([0x9B, 0x36, 0x6E]) == Array("^[[6n".utf8))
    #expect(Self.filtered([0x9D, 0x35, 0x32, 0x3B, 0x07]) == Array("^[]52;\u{7}".utf8))
    #expect(Self.filtered(Array("✓Ş".utf8)) == Array("✓Ş".utf8))
    // A lead byte cut short leaves the next byte to stand alone; E0 80 is not UTF-8 (overlong).
    #expect(Self.filtered([0xC3, 0x9B]) == [0xC3, 0x9B])
    #expect(Self.filtered([0xC3, 0x41, 0x9B]) == [0xC3, 0x41] + Array("^[[".utf8))
    #expect(Self.filtered([0xE0, 0x80, 0x41]) == [0xE0] + Array("^[@A".utf8))
  }

  @Test func dsaRunsOwnLineNeedsABreakOnlyAfterAnUnfinishedLine() {
    #expect(!ProgramOutput.needsLineBreak(after: nil), "nothing printed")
    #expect(!ProgramOutput.needsLineBreak(after: UInt8(ascii: "\n")))
    // A prompt, a progress bar drawn with \r, a terminal's CR LF cut before its LF.
    for last in [" ", "?", "\r", "x"] {
      #expect(ProgramOutput.needsLineBreak(after: last.utf8.first), "\(last.debugDescription)")
    }
  }

  @Test func aSequenceSplitAcrossChunksIsDecidedWhole() {
    var filter = TerminalFilter()
    #expect(filter.filter(Array("ok \u{1B}".utf8)) == Array("ok ".utf8))
    #expect(filter.filter(Array("[3".utf8)).isEmpty)
    #expect(filter.filter(Array("1mred".utf8)) == Array("\u{1B}[31mred".utf8))
    #expect(filter.filter(Array("\u{1B}]5".utf8)) == Array("^[]5".utf8))
    #expect(filter.filter(Array("2;c;x\u{7}".utf8)) == Array("2;c;x\u{7}".utf8))
    // Held at the end of the stream: shown, refused.
    #expect(filter.filter(Array("\u{1B}[12".utf8)).isEmpty)
    #expect(filter.finish() == Array("^[[12".utf8))
    // A CSI longer than anything kept is refused rather than held without bound.
    let long = "\u{1B}[" + String(repeating: "1;", count: 100) + "m"
    #expect(Self.filtered(long) == "^[[" + String(repeating: "1;", count: 100) + "m")
  }
}

import Testing
@testable import PBCore

@Suite struct TerminalTextTests {
    @Test func escapeSequencesCannotReachTheTerminal() {
        // OSC 52 (clipboard), OSC 0 (title), CSI, backspaces and a carriage return rewriting a line.
        let hostile = "Total \u{1B}]52;c;ZWNobyBoaQ==\u{07}£1,325\u{1B}]0;owned\u{07}\u{1B}[2K\r£9\u{08}\u{08} \u{9B}31m\u{7F}\u{0}"
        let shown = TerminalText.visible(hostile)
        #expect(!shown.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F...0x9F).contains($0.value) })
        #expect(shown.contains("␛]52;c;ZWNobyBoaQ==␇£1,325"))
        #expect(shown.contains("␍£9␈␈"))
        #expect(shown.hasSuffix("\u{FFFD}31m␡␀"))
    }

    @Test func ordinaryTextIsUnchanged() {
        let text = "Sources:\n  [1] notes.txt:3 in \"Café\"\tpage 2 — 5 °C ✓"
        #expect(TerminalText.visible(text) == text)
    }
}

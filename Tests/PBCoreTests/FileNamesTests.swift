import Testing
@testable import PBCore

/// File names are bytes: NUL-separated lists keep newlines, and names that are not UTF-8 are
/// named with their bad bytes escaped (issue 17, item 14).
@Suite struct FileNamesTests {
    @Test func nulSeparatedListsKeepNewlinesAndCarriageReturns() {
        let list = Array("a\nb.txt\u{0}c\rd.txt\u{0}\u{0}plain.md".utf8)
        #expect(FileNames.entries(nulSeparated: list) == [.name("a\nb.txt"), .name("c\rd.txt"), .name("plain.md")])
    }

    @Test func namesThatAreNotUTF8AreShownByteForByte() {
        let latin1: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".txt".utf8)
        #expect(FileNames.entry(latin1) == .notUTF8(shown: "caf\\xE9.txt"))
        // Valid multi-byte characters around a bad byte stay as they are.
        let mixed: [UInt8] = Array("é".utf8) + [0xFF] + Array("€".utf8)
        #expect(FileNames.shown(mixed) == "é\\xFF€")
        #expect(FileNames.notUTF8Message("caf\\xE9.txt").hasPrefix("caf\\xE9.txt: the file name is not valid UTF-8"))
    }
}

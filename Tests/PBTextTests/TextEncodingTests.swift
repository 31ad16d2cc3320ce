import Foundation
import Testing
@testable import PBText

@Suite struct TextEncodingTests {
    let text = "The boiler pressure should be 1.5 bar. Café, naïve, 5 °C.\n"

    func encoded(_ e: String.Encoding, bom: [UInt8] = []) -> [UInt8] { bom + Array(text.data(using: e)!) }

    @Test func utf16AndUtf32AreToldWithAndWithoutAMark() {
        let cases: [([UInt8], TextEncoding)] = [
            (encoded(.utf16LittleEndian), .utf16(littleEndian: true, bom: false)),
            (encoded(.utf16BigEndian), .utf16(littleEndian: false, bom: false)),
            (encoded(.utf16LittleEndian, bom: [0xFF, 0xFE]), .utf16(littleEndian: true, bom: true)),
            (encoded(.utf16BigEndian, bom: [0xFE, 0xFF]), .utf16(littleEndian: false, bom: true)),
            (encoded(.utf32LittleEndian), .utf32(littleEndian: true, bom: false)),
            (encoded(.utf32BigEndian), .utf32(littleEndian: false, bom: false)),
            (encoded(.utf32LittleEndian, bom: [0xFF, 0xFE, 0, 0]), .utf32(littleEndian: true, bom: true)),
            (Array(text.utf8), .utf8),
        ]
        for (bytes, want) in cases {
            #expect(TextEncoding.detect(bytes) == want)
            #expect(TextEncoding.detect(bytes).utf8Bytes(bytes) == Array(text.utf8))
        }
    }

    /// A NUL or two in UTF-8 text (a log written through a crash) does not make it UTF-16.
    @Test func aFewNulsInUtf8StayUtf8() {
        let bytes = Array("The gate code is 5190.\u{0} The alarm code is 2231.\u{0}\n".utf8)
        #expect(TextEncoding.detect(bytes) == .utf8)
        #expect(TextEncoding.detect(bytes).utf8Bytes(bytes) == bytes)
    }

    /// Binary data has zero bytes too: a guess that does not read as text is not taken.
    @Test func binaryIsNotTakenForUtf16() {
        #expect(TextEncoding.detect([0, 1, 2, 3]) == .utf8)
        #expect(TextEncoding.detect([0x89, 0, 0x4E, 0, 0x47, 0, 0x0D, 0, 0x0A, 0, 0x1A, 0]) == .utf8)
    }

    @Test func oddLengthUtf16IsNotValid() {
        var bytes = encoded(.utf16LittleEndian, bom: [0xFF, 0xFE])
        bytes.append(0x41)
        #expect(TextEncoding.detect(bytes).utf8Bytes(bytes) == nil)
    }
}

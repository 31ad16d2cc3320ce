/// A piece of text the date grammar reads: a run of ASCII digits, a run of ASCII letters
/// (lowercased), or one other character. "5pm" is two tokens, "27th" two, "17:30" three; `glued`
/// says a token touches the one before it, so "17:30" can be told from "17 : 30".
struct DateToken: Equatable {
    enum Kind { case number, word, symbol }

    var kind: Kind
    /// Lowercased for words; the digits for numbers; the character for symbols.
    var text: String
    /// UTF-8 byte offsets in the original text.
    var start: Int
    var end: Int
    /// No white space between this token and the previous one.
    var glued: Bool

    var number: Int? { kind == .number && text.count <= 9 ? Int(text) : nil }

    /// Splits text into tokens. Letters outside ASCII form symbol tokens, so an accented word never
    /// reads as an English date word.
    static func tokenize(_ text: String) -> [DateToken] {
        let bytes = Array(text.utf8)
        var tokens: [DateToken] = []
        var i = 0
        var sawSpace = true
        func isDigit(_ b: UInt8) -> Bool { b >= 48 && b <= 57 }
        func isLetter(_ b: UInt8) -> Bool { (b >= 65 && b <= 90) || (b >= 97 && b <= 122) }
        while i < bytes.count {
            let b = bytes[i]
            if b == 32 || b == 9 || b == 10 || b == 13 {
                sawSpace = true
                i += 1
                continue
            }
            let start = i
            let kind: Kind
            if isDigit(b) {
                while i < bytes.count, isDigit(bytes[i]) { i += 1 }
                kind = .number
            } else if isLetter(b) {
                while i < bytes.count, isLetter(bytes[i]) { i += 1 }
                kind = .word
            } else {
                // One character, however many bytes it takes (continuation bytes are 10xxxxxx).
                i += 1
                while i < bytes.count, bytes[i] & 0xC0 == 0x80 { i += 1 }
                kind = .symbol
            }
            var piece = String(decoding: bytes[start..<i], as: UTF8.self)
            if kind == .word { piece = piece.lowercased() }
            // Typographic apostrophes read as plain ones ("o’clock").
            if piece == "\u{2019}" { piece = "'" }
            tokens.append(DateToken(kind: kind, text: piece, start: start, end: i, glued: !sawSpace && !tokens.isEmpty))
            sawSpace = false
        }
        return tokens
    }
}

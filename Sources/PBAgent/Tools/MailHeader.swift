import Foundation

/// The header fields of an e-mail draft as RFC 5322 and RFC 2047 want them, and the checks that
/// keep a value inside its field. Lines are folded before a space to stay within 78 characters;
/// text outside printable ASCII is written as encoded words (UTF-8, base64) of at most 75
/// characters, never cutting a character in two.
enum MailHeader {
    static let lineLimit = 78
    /// 39 bytes are 52 base64 characters: a word of 64, so "Subject: " and one word fit a line.
    static let wordBytes = 39
    /// A plain word longer than this could not be folded onto a line of its own.
    static let longestPlainWord = 60

    /// The first C0 control (CR, LF, NUL ...), DEL or C1 control in `value`; a TAB counts only
    /// when `tab` is false (it is white space in text, but never part of an address).
    static func controlCharacter(in value: String, allowingTab tab: Bool) -> Unicode.Scalar? {
        value.unicodeScalars.first { s in (s.value < 0x20 && !(tab && s == "\t")) || (0x7F...0x9F).contains(s.value) }
    }

    static func code(_ s: Unicode.Scalar) -> String { "U+" + String(format: "%04X", s.value) }

    /// Refuses a control character in text bound for a header (a subject, a name) or a phone number.
    static func checkText(_ value: String, field: String, what: String, allowingTab tab: Bool = true) throws {
        if let c = controlCharacter(in: value, allowingTab: tab) {
            throw UnsafeInput(field: field, reason: "control character \(code(c)) in \(what)")
        }
    }

    /// Refuses an address that could end its field or add a recipient: a control character, white
    /// space, a comma, a semicolon or an angle bracket, or more than RFC 5321's 254 octets.
    static func checkAddress(_ value: String, field: String, what: String) throws {
        try checkText(value, field: field, what: what, allowingTab: false)
        if let c = value.first(where: { $0.isWhitespace || ",;<>".contains($0) }) {
            let shown = c.isWhitespace ? "white space" : "'\(c)'"
            throw UnsafeInput(field: field, reason: "\(shown) in \(what) (one address is expected)")
        }
        if value.utf8.count > 254 { throw UnsafeInput(field: field, reason: "\(what) of \(value.utf8.count) octets (at most 254)") }
    }

    /// `Name: text` for unstructured text (Subject). Printable ASCII is kept as written, folded
    /// before its spaces; anything else is encoded whole, so that no space between a plain and an
    /// encoded word is lost or added. A word that a mail reader would take for an encoded word
    /// ("=?...?=") is encoded too, so that it reads as written.
    static func field(_ name: String, unstructured text: String) -> String {
        let words = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        let plain = text.unicodeScalars.allSatisfy { (0x20...0x7E).contains($0.value) || $0 == "\t" }
            && !text.contains("=?") && words.allSatisfy { $0.count <= longestPlainWord }
        return fold(name, plain ? words : encodedWords(text))
    }

    /// `Name: "Display Name" <address>`: a plain ASCII name quoted; any other as a phrase.
    static func field(_ name: String, mailbox display: String, address: String) -> String {
        var tokens: [String] = []
        if !display.isEmpty {
            let quoted = "\"" + display.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
            let plain = display.unicodeScalars.allSatisfy { (0x20...0x7E).contains($0.value) } && quoted.count <= longestPlainWord
            tokens = plain ? [quoted] : phrase(display)
        }
        tokens.append("<\(address)>")
        return fold(name, tokens)
    }

    /// RFC 5322 atext: the characters a word of a name may have without quotes.
    static func isAtom(_ word: Substring) -> Bool {
        !word.isEmpty && !word.contains("=?") && word.unicodeScalars.allSatisfy {
            $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "!#$%&'*+-/=?^_`{|}~".unicodeScalars.contains($0))
        }
    }

    /// A name outside ASCII as a phrase: its plain words as they are, each run of other words as
    /// encoded words with the spaces inside them. Readers drop the space between two encoded
    /// words (RFC 2047 6.2) and some keep it, but all keep the one beside a plain word.
    static func phrase(_ display: String) -> [String] {
        var tokens: [String] = []
        var run: [Substring] = []
        for word in display.split(separator: " ") {
            if isAtom(word) {
                if !run.isEmpty { tokens += encodedWords(run.joined(separator: " ")); run = [] }
                tokens.append(String(word))
            } else {
                run.append(word)
            }
        }
        if !run.isEmpty { tokens += encodedWords(run.joined(separator: " ")) }
        return tokens
    }

    /// Base64 encoded words of at most `wordBytes` bytes each, split between characters (between
    /// the scalars of a character only when one character is longer than a word).
    static func encodedWords(_ text: String) -> [String] {
        var chunks: [[UInt8]] = []
        var current: [UInt8] = []
        func add(_ bytes: [UInt8]) {
            if current.count + bytes.count > wordBytes, !current.isEmpty { chunks.append(current); current = [] }
            current += bytes
        }
        for ch in text {
            let bytes = Array(String(ch).utf8)
            if bytes.count <= wordBytes { add(bytes) } else { for s in ch.unicodeScalars { add(Array(String(s).utf8)) } }
        }
        if !current.isEmpty || chunks.isEmpty { chunks.append(current) }
        return chunks.map { "=?UTF-8?B?" + Data($0).base64EncodedString() + "?=" }
    }

    /// The field's tokens joined by spaces, with a line break before a space wherever the line
    /// would pass `lineLimit` (unfolding, which takes out the CRLF only, gives the text back).
    static func fold(_ name: String, _ tokens: [String]) -> String {
        var out = name + ":"
        var line = out.utf8.count
        for t in tokens {
            if line + 1 + t.utf8.count > lineLimit, line > name.utf8.count + 1 {
                out += "\r\n"
                line = 0
            }
            out += " " + t
            line += 1 + t.utf8.count
        }
        return out
    }
}

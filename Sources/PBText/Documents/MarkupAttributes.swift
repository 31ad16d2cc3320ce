/// The attributes of a start tag as HTML and XML write them: a name, then `=` and a value in
/// quotes (in HTML also without), up to the `>` that ends the tag; a `>` inside quotes does not
/// end it. HTMLDocument and XMLScanner both read tags through this, each decoding names and
/// values by its own rules (HTML's case and entities, XML's namespaces).
struct MarkupAttributes {
    /// Each attribute as written: its name's bytes, and its value's (nil when it has none).
    var pairs: [(name: ArraySlice<UInt8>, value: ArraySlice<UInt8>?)] = []
    /// The tag ends in `/>`: in HTML the `/` right before the `>`; in XML nothing but spaces
    /// between them.
    var selfClosing = false
    /// Just past the tag's `>`, or the end of the input.
    var end: Int

    /// Reads from `start` (just past the tag's name). `unquotedValues`: a value may be written
    /// without quotes (HTML), running to a space or the `>`.
    init(_ bytes: [UInt8], from start: Int, unquotedValues: Bool) {
        let close = UInt8(ascii: ">"), slash = UInt8(ascii: "/"), equals = UInt8(ascii: "=")
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C }
        var i = start
        while i < bytes.count {
            let byte = bytes[i]
            if byte == close { i += 1; break }
            if isSpace(byte) { i += 1; continue }
            if byte == slash {
                selfClosing = !unquotedValues || (i + 1 < bytes.count && bytes[i + 1] == close)
                i += 1
                continue
            }
            selfClosing = false
            // A name is at least one byte, so a stray "=" cannot stall the scan.
            let nameStart = i
            i += 1
            while i < bytes.count, !isSpace(bytes[i]), bytes[i] != equals, bytes[i] != close, bytes[i] != slash { i += 1 }
            let name = bytes[nameStart ..< i]
            while i < bytes.count, isSpace(bytes[i]) { i += 1 }
            var value: ArraySlice<UInt8>?
            if i < bytes.count, bytes[i] == equals {
                i += 1
                while i < bytes.count, isSpace(bytes[i]) { i += 1 }
                if i < bytes.count, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") {
                    let quote = bytes[i]
                    let end = bytes[(i + 1)...].firstIndex(of: quote) ?? bytes.count
                    value = bytes[(i + 1) ..< end]
                    i = min(end + 1, bytes.count)
                } else if unquotedValues {
                    let valueStart = i
                    while i < bytes.count, !isSpace(bytes[i]), bytes[i] != close { i += 1 }
                    value = bytes[valueStart ..< i]
                } else {
                    value = bytes[i ..< i]
                }
            }
            pairs.append((name, value))
        }
        end = i
    }
}

import Foundation

/// The encoding of a plain-text file (text, Markdown, CSV): UTF-8, or UTF-16 or UTF-32 with or
/// without a byte-order mark. Windows tools write UTF-16LE, often without a mark; read as UTF-8,
/// such a file is every other byte a NUL, and the text would be lost. Without a mark the encoding
/// is told by where the zero bytes fall: text in Latin scripts has a zero in the high byte of
/// nearly every code unit.
public enum TextEncoding: Equatable, Sendable {
    case utf8
    case utf16(littleEndian: Bool, bom: Bool)
    case utf32(littleEndian: Bool, bom: Bool)

    /// How many leading bytes are looked at to tell the encoding when there is no mark.
    static let sample = 4096

    /// The encoding of `bytes`, by byte-order mark, else by the pattern of zero bytes.
    public static func detect(_ bytes: [UInt8]) -> TextEncoding {
        if bytes.starts(with: [0xFF, 0xFE, 0, 0]) { return .utf32(littleEndian: true, bom: true) }
        if bytes.starts(with: [0, 0, 0xFE, 0xFF]) { return .utf32(littleEndian: false, bom: true) }
        if bytes.starts(with: [0xFF, 0xFE]) { return .utf16(littleEndian: true, bom: true) }
        if bytes.starts(with: [0xFE, 0xFF]) { return .utf16(littleEndian: false, bom: true) }
        let head = Array(bytes.prefix(sample))
        guard head.count >= 4, head.contains(0) else { return .utf8 }
        // Zero bytes by position modulo 4.
        var zeros = [0, 0, 0, 0]
        for (i, b) in head.enumerated() where b == 0 { zeros[i & 3] += 1 }
        let quads = head.count / 4
        func mostly(_ n: Int) -> Bool { n * 10 >= quads * 9 }
        func rarely(_ n: Int) -> Bool { n * 20 <= quads }
        var guesses: [TextEncoding] = []
        if bytes.count % 4 == 0 {
            if mostly(zeros[2]), mostly(zeros[3]), rarely(zeros[0]) { guesses.append(.utf32(littleEndian: true, bom: false)) }
            if mostly(zeros[0]), mostly(zeros[1]), rarely(zeros[3]) { guesses.append(.utf32(littleEndian: false, bom: false)) }
        }
        if bytes.count % 2 == 0 {
            let even = zeros[0] + zeros[2], odd = zeros[1] + zeros[3]
            let pairs = head.count / 2
            // Over two fifths of the high bytes zero, and almost none of the low ones.
            if odd * 5 >= pairs * 2, even * 20 <= pairs { guesses.append(.utf16(littleEndian: true, bom: false)) }
            if even * 5 >= pairs * 2, odd * 20 <= pairs { guesses.append(.utf16(littleEndian: false, bom: false)) }
        }
        // A guess by zero bytes holds only when the sample reads as text: binary data has zeros too.
        let aligned = Array(head.prefix(head.count - head.count % 4))
        return guesses.first { $0.readsAsText(aligned) } ?? .utf8
    }

    /// Whether `sample` decodes in this encoding to text: no controls but white space.
    func readsAsText(_ sample: [UInt8]) -> Bool {
        // The sample may end inside a surrogate pair.
        guard let utf8 = utf8Bytes(sample) ?? utf8Bytes(Array(sample.dropLast(2))) else { return false }
        let scalars = String(decoding: utf8, as: UTF8.self).unicodeScalars
        return !scalars.isEmpty && !scalars.contains { s in
            (s.value < 0x20 && !"\t\n\r\u{0C}".unicodeScalars.contains(s)) || (0x7F...0x9F).contains(s.value)
        }
    }

    /// The text as UTF-8 bytes, the mark dropped; nil when the bytes are not valid in this encoding.
    public func utf8Bytes(_ bytes: [UInt8]) -> [UInt8]? {
        let encoding: String.Encoding
        var body = bytes[...]
        switch self {
        case .utf8: return String(validating: bytes, as: UTF8.self) != nil ? bytes : nil
        case let .utf16(le, bom):
            encoding = le ? .utf16LittleEndian : .utf16BigEndian
            if bom { body = body.dropFirst(2) }
            guard body.count % 2 == 0 else { return nil }
        case let .utf32(le, bom):
            encoding = le ? .utf32LittleEndian : .utf32BigEndian
            if bom { body = body.dropFirst(4) }
            guard body.count % 4 == 0 else { return nil }
        }
        guard let text = String(data: Data(body), encoding: encoding) else { return nil }
        return Array(text.utf8)
    }

    /// The name a person would use, for messages.
    public var name: String {
        switch self {
        case .utf8: return "UTF-8"
        case let .utf16(le, bom): return "UTF-16\(le ? "LE" : "BE")\(bom ? "" : " without a byte-order mark")"
        case let .utf32(le, bom): return "UTF-32\(le ? "LE" : "BE")\(bom ? "" : " without a byte-order mark")"
        }
    }
}

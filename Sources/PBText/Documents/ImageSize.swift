/// An image's size in pixels, read from its header without decoding it, so a picture too large
/// to read safely is refused before tesseract (which decodes it whole) is started.
///
/// PNG, JPEG, GIF, BMP, WebP, TIFF and the netpbm formats; nil when the header cannot be read,
/// in which case tesseract's own limits apply.
struct ImageSize: Equatable {
    var width: Int
    var height: Int

    var megapixels: Double { Double(width) * Double(height) / 1_000_000 }

    /// The largest image OCR reads: 64 megapixels, eight times a 300 dpi A4 scan and more than
    /// most phone cameras (a 48-megapixel phone photo passes). tesseract holds the picture in
    /// grey and several working copies: measured here, a 61-megapixel page peaked at 680 MB and
    /// a 97-megapixel one at 1.05 GB (tesseract 5.3), so this keeps one page under about 700 MB.
    static let maximumPixels = 64_000_000

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    init?(_ b: [UInt8]) {
        func be16(_ i: Int) -> Int { i + 1 < b.count ? Int(b[i]) << 8 | Int(b[i + 1]) : 0 }
        func le16(_ i: Int) -> Int { i + 1 < b.count ? Int(b[i]) | Int(b[i + 1]) << 8 : 0 }
        func be32(_ i: Int) -> Int { be16(i) << 16 | be16(i + 2) }
        func le32(_ i: Int) -> Int { le16(i) | le16(i + 2) << 16 }
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47]), b.count >= 24 {
            self.init(width: be32(16), height: be32(20))
        } else if b.starts(with: Array("GIF8".utf8)), b.count >= 10 {
            self.init(width: le16(6), height: le16(8))
        } else if b.starts(with: Array("BM".utf8)), b.count >= 26 {
            self.init(width: abs(Int(Int32(truncatingIfNeeded: le32(18)))), height: abs(Int(Int32(truncatingIfNeeded: le32(22)))))
        } else if b.starts(with: [0xFF, 0xD8]) {
            // JPEG: walk the markers to the first start-of-frame (C0-CF but C4, C8 and CC).
            var i = 2
            while i + 9 < b.count {
                guard b[i] == 0xFF else { return nil }
                let marker = b[i + 1]
                if marker == 0xFF { i += 1; continue }
                if (0xC0 ... 0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                    self.init(width: be16(i + 7), height: be16(i + 5))
                    return
                }
                if marker == 0xD8 || (0xD0 ... 0xD7).contains(marker) || marker == 0x01 { i += 2; continue }
                i += 2 + be16(i + 2)
            }
            return nil
        } else if b.count >= 30, b.starts(with: Array("RIFF".utf8)), b[8 ..< 12].elementsEqual("WEBP".utf8) {
            switch String(decoding: b[12 ..< 16], as: UTF8.self) {
            case "VP8 ": self.init(width: le16(26) & 0x3FFF, height: le16(28) & 0x3FFF)
            case "VP8L":
                let bits = le32(21)
                self.init(width: (bits & 0x3FFF) + 1, height: ((bits >> 14) & 0x3FFF) + 1)
            case "VP8X": self.init(width: (le16(24) | Int(b[26]) << 16) + 1, height: (le16(27) | Int(b[29]) << 16) + 1)
            default: return nil
            }
        } else if b.starts(with: Array("II*\u{0}".utf8)) || b.starts(with: Array("MM\u{0}*".utf8)) {
            let little = b[0] == 0x49
            func u16(_ i: Int) -> Int { little ? le16(i) : be16(i) }
            func u32(_ i: Int) -> Int { little ? le32(i) : be32(i) }
            let ifd = u32(4)
            let count = u16(ifd)
            var width: Int?
            var height: Int?
            for entry in 0 ..< min(count, 512) {
                let at = ifd + 2 + entry * 12
                guard at + 12 <= b.count else { break }
                let value = u16(at + 2) == 3 ? u16(at + 8) : u32(at + 8)
                if u16(at) == 256 { width = value } else if u16(at) == 257 { height = value }
            }
            guard let width, let height else { return nil }
            self.init(width: width, height: height)
        } else if b.count > 3, b[0] == UInt8(ascii: "P"), (UInt8(ascii: "1") ... UInt8(ascii: "6")).contains(b[1]) {
            // netpbm: "P6 <width> <height> ...", with comments after '#'.
            var numbers: [Int] = []
            var i = 2
            while i < min(b.count, 1024), numbers.count < 2 {
                if b[i] == UInt8(ascii: "#") {
                    while i < b.count, b[i] != 0x0A { i += 1 }
                } else if (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains(b[i]) {
                    var n = 0
                    while i < b.count, (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains(b[i]), n < 1 << 40 {
                        n = n * 10 + Int(b[i] - UInt8(ascii: "0"))
                        i += 1
                    }
                    numbers.append(n)
                    continue
                }
                i += 1
            }
            guard numbers.count == 2 else { return nil }
            self.init(width: numbers[0], height: numbers[1])
        } else {
            return nil
        }
    }
}

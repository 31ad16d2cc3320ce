import Foundation

/// One word tesseract read: a level-5 row of its TSV output, with the box it found it in
/// (pixels of the page image) and its confidence (0-100).
public struct OCRWord: Sendable, Equatable {
    public var text: String
    public var block: Int
    public var paragraph: Int
    public var line: Int
    public var left: Int
    public var top: Int
    public var width: Int
    public var height: Int
    public var confidence: Double

    public init(text: String, block: Int, paragraph: Int, line: Int, left: Int, top: Int, width: Int, height: Int, confidence: Double) {
        self.text = text
        self.block = block
        self.paragraph = paragraph
        self.line = line
        self.left = left
        self.top = top
        self.width = width
        self.height = height
        self.confidence = confidence
    }

    var right: Int { left + width }

    /// The words of tesseract's TSV (`tesseract IMAGE stdout tsv`): level-5 rows with text, in
    /// its reading order. Rows of other levels, empty words (a rule or a speck read as a space)
    /// and a header or short row are skipped.
    public static func parse(tsv: [UInt8]) -> [OCRWord] {
        var out: [OCRWord] = []
        for row in tsv.split(separator: 0x0A) {
            let f = row.split(separator: 0x09, maxSplits: 11, omittingEmptySubsequences: false)
            guard f.count == 12, f[0].elementsEqual("5".utf8) else { continue }
            let text = String(decoding: f[11], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            func int(_ i: Int) -> Int? { Int(String(decoding: f[i], as: UTF8.self)) }
            guard !text.isEmpty, let block = int(2), let par = int(3), let line = int(4), let left = int(6), let top = int(7),
                  let width = int(8), let height = int(9), let conf = Double(String(decoding: f[10], as: UTF8.self)), conf >= 0
            else { continue }
            out.append(OCRWord(text: text, block: block, paragraph: par, line: line, left: left, top: top,
                               width: width, height: height, confidence: conf))
        }
        return out
    }
}

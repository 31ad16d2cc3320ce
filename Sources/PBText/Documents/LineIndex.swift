/// Line structure of a byte buffer: where each line starts, to turn byte offsets into 1-based line
/// numbers and to walk a document line by line.
public struct LineIndex: Sendable {
    /// Byte offset of the first byte of each line.
    public let starts: [Int]
    public let count: Int
    private let total: Int

    public init(_ bytes: [UInt8]) {
        var starts = [0]
        for (i, b) in bytes.enumerated() where b == 0x0A && i + 1 < bytes.count { starts.append(i + 1) }
        self.starts = starts
        self.total = bytes.count
        self.count = bytes.isEmpty ? 0 : starts.count
    }

    /// 1-based line holding byte `offset`.
    public func line(at offset: Int) -> Int {
        var lo = 0, hi = starts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if starts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        return lo + 1
    }

    /// Byte range of line `i` (0-based) without its line break.
    public func range(ofLine i: Int, in bytes: [UInt8]) -> Range<Int> {
        var end = i + 1 < starts.count ? starts[i + 1] - 1 : total
        if end > starts[i], end - 1 < bytes.count, bytes[end - 1] == 0x0D { end -= 1 }
        if end < starts[i] { end = starts[i] }
        return starts[i]..<end
    }
}

import CZlib

/// A read-only ZIP archive held in memory, enough to read Office Open XML packages.
///
/// The central directory is the archive's authority (local headers may carry zero sizes when a
/// data descriptor follows), so entries are listed from it and only their data is located through
/// the local header. Stored and deflated entries are read; every entry's CRC-32 is checked so a
/// truncated or damaged file fails loudly instead of feeding half a document to the chunker.
public struct ZipArchive: Sendable {
    public struct Entry: Sendable, Equatable {
        public var name: String
        /// 0 stored, 8 deflated; anything else is refused when read.
        public var method: UInt16
        public var flags: UInt16
        public var crc32: UInt32
        public var compressedSize: Int
        public var uncompressedSize: Int
        public var localHeaderOffset: Int
    }

    public enum Failure: Error, CustomStringConvertible, Equatable {
        case notAnArchive
        case damaged(String)
        case unsupported(String)
        /// The entry is encrypted with a password (general-purpose flag bit 0).
        case encrypted(String)

        public var description: String {
            switch self {
            case .notAnArchive: return "not a zip archive (no end of central directory record)"
            case let .damaged(what): return "damaged zip archive: \(what)"
            case let .unsupported(what): return "unsupported zip feature: \(what)"
            case let .encrypted(name): return "\(name) is encrypted"
            }
        }
    }

    /// A ceiling on one inflated entry: a DOCX part is a few megabytes and the sheet of a large
    /// spreadsheet some tens, so anything past this is a zip bomb or garbage and must not be
    /// allowed to exhaust memory. Inflating never writes past an entry's declared size (checked
    /// against this before any memory is taken), so one read holds at most this much.
    public static let maximumEntrySize = 256 << 20

    public let entries: [Entry]
    private let data: [UInt8]

    public init(_ data: [UInt8]) throws(Failure) {
        self.data = data
        self.entries = try Self.readCentralDirectory(data)
    }

    public func entry(named name: String) -> Entry? {
        entries.first { $0.name == name }
    }

    /// The inflated bytes of the entry called `name`, or nil when the archive has no such entry.
    public func contents(named name: String) throws(Failure) -> [UInt8]? {
        guard let entry = entry(named: name) else { return nil }
        return try contents(of: entry)
    }

    public func contents(of entry: Entry) throws(Failure) -> [UInt8] {
        if entry.flags & 1 != 0 { throw .encrypted(entry.name) }
        if entry.uncompressedSize > Self.maximumEntrySize {
            throw .unsupported("\(entry.name) inflates to \(entry.uncompressedSize) bytes")
        }
        let local = entry.localHeaderOffset
        guard local >= 0, local <= data.count - 30, Self.u32(data, local) == 0x0403_4b50 else {
            throw .damaged("bad local header for \(entry.name)")
        }
        let start = local + 30 + Int(Self.u16(data, local + 26)) + Int(Self.u16(data, local + 28))
        guard entry.compressedSize <= data.count - start else {
            throw .damaged("\(entry.name) runs past the end of the file")
        }
        let packed = data[start ..< start + entry.compressedSize]
        let bytes: [UInt8]
        switch entry.method {
        case 0:
            guard entry.compressedSize == entry.uncompressedSize else {
                throw .damaged("stored entry \(entry.name) has mismatched sizes")
            }
            bytes = Array(packed)
        case 8:
            bytes = try Self.inflate(packed, expected: entry.uncompressedSize, name: entry.name)
        default:
            throw .unsupported("compression method \(entry.method) for \(entry.name)")
        }
        guard Self.checksum(bytes) == entry.crc32 else { throw .damaged("crc mismatch for \(entry.name)") }
        return bytes
    }

    // MARK: - Central directory

    private static func readCentralDirectory(_ data: [UInt8]) throws(Failure) -> [Entry] {
        guard let eocd = findEndOfCentralDirectory(data) else { throw .notAnArchive }
        var count = Int(u16(data, eocd + 10))
        var size = Int(u32(data, eocd + 12))
        var offset = Int(u32(data, eocd + 16))
        if count == 0xFFFF || size == 0xFFFF_FFFF || offset == 0xFFFF_FFFF {
            // Zip64: the real figures live in a record that a locator just before the EOCD points at.
            let locator = eocd - 20
            guard locator >= 0, u32(data, locator) == 0x0706_4b50 else { throw .damaged("missing zip64 locator") }
            let record = Int(clamping: u64(data, locator + 8))
            guard record >= 0, record <= data.count - 56, u32(data, record) == 0x0606_4b50 else {
                throw .damaged("bad zip64 end of central directory")
            }
            count = Int(clamping: u64(data, record + 32))
            size = Int(clamping: u64(data, record + 40))
            offset = Int(clamping: u64(data, record + 48))
        }
        guard offset >= 0, size >= 0, offset <= data.count, size <= data.count - offset else {
            throw .damaged("central directory lies outside the file")
        }
        var entries: [Entry] = []
        entries.reserveCapacity(min(count, 65536))
        var at = offset
        for _ in 0 ..< count {
            guard at + 46 <= data.count, u32(data, at) == 0x0201_4b50 else {
                throw .damaged("bad central directory entry at byte \(at)")
            }
            let flags = u16(data, at + 8)
            let nameLength = Int(u16(data, at + 28))
            let extraLength = Int(u16(data, at + 30))
            let commentLength = Int(u16(data, at + 32))
            let nameStart = at + 46
            let extraStart = nameStart + nameLength
            let next = extraStart + extraLength + commentLength
            guard next <= data.count else { throw .damaged("central directory entry runs past the end") }
            var entry = Entry(
                name: decodeName(data[nameStart ..< extraStart]),
                method: u16(data, at + 10),
                flags: flags,
                crc32: u32(data, at + 16),
                compressedSize: Int(u32(data, at + 20)),
                uncompressedSize: Int(u32(data, at + 24)),
                localHeaderOffset: Int(u32(data, at + 42))
            )
            applyZip64Extra(data[extraStart ..< extraStart + extraLength], to: &entry)
            entries.append(entry)
            at = next
        }
        return entries
    }

    /// The EOCD sits at the very end unless an archive comment (at most 65535 bytes) follows it.
    private static func findEndOfCentralDirectory(_ data: [UInt8]) -> Int? {
        guard data.count >= 22 else { return nil }
        let lowest = max(0, data.count - 22 - 0xFFFF)
        var at = data.count - 22
        while at >= lowest {
            if data[at] == 0x50, u32(data, at) == 0x0605_4b50,
               at + 22 + Int(u16(data, at + 20)) <= data.count {
                return at
            }
            at -= 1
        }
        return nil
    }

    /// Replaces the 32-bit fields that are saturated (0xFFFFFFFF) with the zip64 extra field's values,
    /// which appear in a fixed order but only for the fields that overflowed.
    private static func applyZip64Extra(_ extra: ArraySlice<UInt8>, to entry: inout Entry) {
        var at = extra.startIndex
        while at + 4 <= extra.endIndex {
            let id = u16(extra, at)
            let length = Int(u16(extra, at + 2))
            let body = at + 4
            guard body + length <= extra.endIndex else { return }
            if id == 0x0001 {
                var field = body
                func next() -> Int? {
                    guard field + 8 <= body + length else { return nil }
                    defer { field += 8 }
                    return Int(clamping: u64(extra, field))
                }
                if entry.uncompressedSize == 0xFFFF_FFFF, let v = next() { entry.uncompressedSize = v }
                if entry.compressedSize == 0xFFFF_FFFF, let v = next() { entry.compressedSize = v }
                if entry.localHeaderOffset == 0xFFFF_FFFF, let v = next() { entry.localHeaderOffset = v }
                return
            }
            at = body + length
        }
    }

    /// Names without the UTF-8 flag are nominally CP437; in practice Office writes ASCII, so a lossy
    /// UTF-8 reading is enough to find the parts we look for.
    private static func decodeName(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    // MARK: - zlib

    private static func inflate(_ packed: ArraySlice<UInt8>, expected: Int, name: String) throws(Failure) -> [UInt8] {
        if expected == 0 { return [] }
        // One spare byte: an entry that inflates past its declared size fills it instead of stopping
        // silently at the limit, and inflate can always reach its end-of-stream marker.
        var output = [UInt8](repeating: 0, count: expected + 1)
        var input = Array(packed)
        var stream = z_stream()
        let status: Int32 = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                // Raw deflate (negative window bits): ZIP entries carry no zlib header or trailer.
                guard inflateInit2_(&stream, -MAX_WBITS, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
                    return Z_MEM_ERROR
                }
                defer { inflateEnd(&stream) }
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                var fed = 0
                var status = Z_OK
                // avail_in is 32-bit, so input larger than 4 GiB is fed in slices.
                while status == Z_OK {
                    if stream.avail_in == 0 {
                        guard fed < inBuffer.count else { return Z_DATA_ERROR }
                        let n = min(inBuffer.count - fed, Int(UInt32.max))
                        stream.next_in = inBuffer.baseAddress! + fed
                        stream.avail_in = uInt(n)
                        fed += n
                    }
                    status = CZlib.inflate(&stream, Z_NO_FLUSH)
                }
                return status
            }
        }
        guard status != Z_MEM_ERROR else { throw .damaged("cannot start zlib for \(name)") }
        // The spare byte filled and the stream not ended: the entry holds more than it declares.
        if status != Z_STREAM_END, stream.avail_out == 0 { throw .damaged("\(name) inflates past its declared \(expected) bytes") }
        guard status == Z_STREAM_END else { throw .damaged("cannot inflate \(name)") }
        guard Int(stream.total_out) == expected else {
            throw .damaged("\(name) inflates to a size other than the declared \(expected) bytes")
        }
        output.removeLast()
        return output
    }

    private static func checksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            var crc = crc32(0, nil, 0)
            var at = 0
            while at < buffer.count {
                let n = min(buffer.count - at, Int(UInt32.max))
                crc = crc32(crc, buffer.baseAddress! + at, uInt(n))
                at += n
            }
            return UInt32(truncatingIfNeeded: crc)
        }
    }

    // MARK: - Little-endian fields

    private static func u16<C: RandomAccessCollection>(_ d: C, _ at: Int) -> UInt16 where C.Element == UInt8, C.Index == Int {
        UInt16(d[at]) | UInt16(d[at + 1]) << 8
    }

    private static func u32<C: RandomAccessCollection>(_ d: C, _ at: Int) -> UInt32 where C.Element == UInt8, C.Index == Int {
        UInt32(d[at]) | UInt32(d[at + 1]) << 8 | UInt32(d[at + 2]) << 16 | UInt32(d[at + 3]) << 24
    }

    private static func u64<C: RandomAccessCollection>(_ d: C, _ at: Int) -> UInt64 where C.Element == UInt8, C.Index == Int {
        UInt64(u32(d, at)) | UInt64(u32(d, at + 4)) << 32
    }
}
